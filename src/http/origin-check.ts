/**
 * A check that warns once, on the console, when result links are built on an origin the browser did not ask from: a
 * same-origin request (`Sec-Fetch-Site: same-origin`, which only the browser sets) comes from a page whose origin the
 * `Referer` carries, so links on any other origin will not open from that page. The `<site-search>` box opens them on
 * the page's origin all the same; what the warning is for is every other client of the endpoint (API calls, MCP
 * assistants, the box's click counts). SvelteKit's adapter-node without `ORIGIN` is a usual cause (it reports
 * `https://` on a plain-HTTP server), Astro 5.17+ without `site` or `security.allowedDomains` another (`localhost`).
 * Cross-site requests and pages that send no `Referer` tell nothing and are never warned about.
 * @internal
 */
export function foreignOriginCheck(): (request: Request, linkOrigin: string) => void {
  let warned = false;
  return (request, linkOrigin) => {
    if (warned || request.headers.get('sec-fetch-site') !== 'same-origin') return;
    const page = originOf(request.headers.get('referer'));
    if (!page || page === linkOrigin) return;
    warned = true;
    console.warn(
      `[site-search] Result links are built on ${linkOrigin}, but this search came from a page on ${page}, where they will not open. ` +
        `The <site-search> box opens them on the page's origin; API clients and MCP assistants get them as built. ` +
        `Tell your framework the public origin (SvelteKit with adapter-node: ORIGIN=${page}; Astro: site, or security.allowedDomains), ` +
        `or set site-search's origin option. This is shown once.`,
    );
  };
}

function originOf(url: string | null): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
