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
