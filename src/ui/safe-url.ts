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
 * `url` on the page's scheme when it names the page's own host and port in the other scheme: one port does not serve
 * both `http` and `https`, so such a link cannot open. SvelteKit's adapter-node without `ORIGIN` builds them (it
 * assumes `https` behind a proxy, also on a plain-HTTP `node build`). Default ports are left alone: an `https` link
 * from an `http` page on port 80 may well open, and is not downgraded.
 */
export function onPageScheme(url: string): string {
  const link = new URL(url, location.href);
  if (!link.port || link.host !== location.host || link.protocol === location.protocol) return url;
  link.protocol = location.protocol;
  return link.href;
}
