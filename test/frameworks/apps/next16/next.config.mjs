// Result URLs end in "/" (search.config.mjs): serve pages there rather than redirecting. output and
// outputFileTracingIncludes are the serverless configuration of docs/frameworks/next.md: the index travels with the
// search route's function and with the standalone server. The tracing root is this app, not the repository around it.
export default {
  trailingSlash: true,
  output: 'standalone',
  outputFileTracingIncludes: { '/api/search': ['./.site-search/search.db'] },
  outputFileTracingRoot: import.meta.dirname,
};
