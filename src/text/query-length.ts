/**
 * Queries shorter than this, in characters (code points) after trimming, return no results rather than an error: the
 * endpoint, MCP's `search` and the click reports analytics accepts all hold a query to it.
 */
export const MIN_QUERY_LENGTH = 2;
