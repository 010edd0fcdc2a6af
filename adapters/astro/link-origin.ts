/**
 * Where the Astro integration builds its absolute URLs: the endpoint's result URLs, MCP's, llms.txt's (issue 55). The
 * box needs none of them (it opens every link on the page's own origin); API clients and assistants do, and Astro's
 * request URL is not always the host the reader used: from 5.17, without `security.allowedDomains`, Astro says
 * `localhost` (5.18 without the port). So, in the built server: the `origin` option when set, then Astro's `site`,
 * then an allowed domain, then the request. Under `astro dev`, the request: the dev server follows the Host it was
 * reached by (Vite refuses the hosts it does not allow), and `site` names production, where a draft has no page yet.
 */

/** An entry of Astro's `security.allowedDomains` (Astro's remote pattern), as far as it names an origin. */
export interface AllowedDomain {
  protocol?: string;
  hostname?: string;
  port?: string;
}

/** What the integration learns from Astro's config, for the routes (`links` of the runtime module). */
export interface LinkOrigins {
  /** Astro's `site`, as an origin. */
  site?: string;
  /** Astro's `security.allowedDomains`. */
  allowedDomains?: AllowedDomain[];
}

/**
 * The request, moved onto an allowed domain when Astro did not take its Host from one: Astro builds the request's URL
 * from the Host only when an allowed domain matches it, else on `localhost`. With no allowed domain, or one that
 * matches, or none that names one host (only wildcards), the request as it is.
 */
export function onAllowedDomain(request: Request, allowedDomains: AllowedDomain[] = []): Request {
  const url = new URL(request.url);
  if (!allowedDomains.length || allowedDomains.some((domain) => matches(url, domain))) return request;
  const named = allowedDomains.find((domain) => domain.hostname && !domain.hostname.startsWith('*'));
  if (!named) return request;
  const protocol = named.protocol?.replace(/:$/, '') ?? url.protocol.slice(0, -1);
  const moved = new URL(`${url.pathname}${url.search}`, `${protocol}://${named.hostname}${named.port ? `:${named.port}` : ''}`);
  // A POST (a click report, an MCP message) keeps its body: a stream, which Fetch passes on only half-duplex.
  return new Request(moved, { method: request.method, headers: request.headers, body: request.body, signal: request.signal, duplex: 'half' } as RequestInit);
}

/** Astro's own test of a URL against an allowed domain (`matchPattern` of @astrojs/internal-helpers, without paths). */
function matches(url: URL, { protocol, hostname, port }: AllowedDomain): boolean {
  if (protocol && protocol.replace(/:$/, '') !== url.protocol.slice(0, -1)) return false;
  if (port && port !== url.port) return false;
  if (!hostname) return true;
  if (hostname.startsWith('**.')) return url.hostname.endsWith(hostname.slice(2));
  if (hostname.startsWith('*.')) {
    const parent = hostname.slice(1);
    return url.hostname.endsWith(parent) && !url.hostname.slice(0, -parent.length).includes('.') && url.hostname.length > parent.length;
  }
  return url.hostname === hostname;
}
