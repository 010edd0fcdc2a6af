// Result URLs end in "/" (search.config.mjs): serve pages there rather than redirecting.
export default { trailingSlash: true };
