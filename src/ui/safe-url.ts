/**
 * Result URLs come from the index, which is built from content files anyone with commit access can write. A
 * `javascript:` (or `data:`, `vbscript:`) URL would run script on click, so only web URLs become links.
 */

/**
 * Returns `url` when it is relative or `http(s):`, else `''`. Parsing (instead of a prefix test) sees what the browser
 * would: `java\tscript:` and ` javascript:` are both `javascript:` to the URL parser.
 */
export function safeHref(url: string | undefined): string {
  if (!url) return '';
  try {
    // The base only classifies relative URLs as web URLs; the link keeps the original string.
    return /^https?:$/.test(new URL(url, 'http://relative.invalid/').protocol) ? url : '';
  } catch {
    return '';
  }
}

/**
 * A result's link as the reader can open it. An endpoint on the page's own origin answers for the page's own site, so
 * its results are this site's pages: the link goes to the same path on the page's origin, whatever origin the server
 * built it on. The server knows only the URL its framework reports, which is not always the one the reader used (Astro
 * 5.17+ says `localhost` unless `security.allowedDomains` names the host; SvelteKit's adapter-node without `ORIGIN`
 * says `https` on a plain-HTTP server). An endpoint on another origin (a Worker answering a static site) keeps its
 * absolute links: they are that endpoint's site's, which the `origin` option names.
 */
export function onPageOrigin(url: string, endpoint: string): string {
  if (new URL(endpoint, document.baseURI).origin !== location.origin) return url;
  const link = new URL(url, location.href);
  return link.origin === location.origin ? url : location.origin + link.pathname + link.search + link.hash;
}
