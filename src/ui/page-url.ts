/** The box's two uses of URLs beyond the endpoint: a query kept in the page's address, and words carried by a link. */

/** The value of `param` in the page's address, or `''`. */
export function queryInPageUrl(param: string): string {
  return new URLSearchParams(location.search).get(param) ?? '';
}

/**
 * Writes `query` into the page's address as `param` (removed when empty), other parameters and the hash kept.
 * `replaceState`, not a new history entry per search, keeping the router's `history.state` (Next.js and SvelteKit keep
 * theirs there).
 */
export function putQueryInPageUrl(param: string, query: string): void {
  const url = new URL(location.href);
  if (query === (url.searchParams.get(param) ?? '')) return;
  if (query) url.searchParams.set(param, query);
  else url.searchParams.delete(param);
  try {
    history.replaceState(history.state, '', url);
  } catch {
    // Safari refuses more than 100 calls in 30 s; the address catches up at the next search.
  }
}

/** `url` with `words` in `param`, placed before any `#anchor`, which stays as it is. `''` (no safe link) stays `''`. */
export function withWords(url: string, param: string, words: string): string {
  if (!url || !words) return url;
  const link = new URL(url, location.href);
  link.searchParams.set(param, words);
  return link.href;
}
