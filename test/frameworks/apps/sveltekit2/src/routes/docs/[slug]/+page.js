// Result URLs end in "/" (search.config.mjs): serve the page there rather than redirecting.
export const trailingSlash = 'always';

export const load = ({ params }) => ({ slug: params.slug });
