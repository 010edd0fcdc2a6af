/** A path that resolves against an origin as it is written: no dot segments, nothing to percent-encode. */
const PLAIN_PATH = /^\/(?![/\\])[A-Za-z0-9\-_~./]*$/;

/**
 * Resolves each result's stored path against the origin: `new URL` once per search, not once per result. A result
 * never leaves the site: a stored path the URL parser would read as another host (`//evil.example`, `/\\evil`, a
 * scheme, control characters hiding either) is taken as a path on the origin instead.
 * @internal
 */
export function urlResolver(origin: string | undefined): (path: string) => string {
  if (!origin) return onSite;
  let base: string;
  try {
    base = new URL(origin).origin;
  } catch {
    return onSite;
  }
  // An opaque origin ("null", from a non-http URL) has nothing to prepend: the URL parser decides.
  const plain = base !== 'null';
  return (path) => {
    if (plain && PLAIN_PATH.test(path) && !path.includes('/.')) return base + path;
    try {
      const url = new URL(path, origin);
      if (url.origin === base) return url.href;
    } catch {}
    try {
      return new URL(onSite(path), origin).href;
    } catch {
      return onSite(path);
    }
  };
}

/** What the URL parser ignores or reads as a host or scheme at the start of a path. */
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
const OFF_SITE = /^(?:[\s\\/]{2}|[a-z][a-z0-9+.-]*:)/i;

/** The stored path, or, when it would lead off the site, the same path under the site's root. */
function onSite(path: string): string {
  const bare = path.replace(CONTROLS, '');
  return OFF_SITE.test(bare.trimStart()) || bare !== path ? `/${bare.replace(/^[\s\\/]+/, '')}` : path;
}
