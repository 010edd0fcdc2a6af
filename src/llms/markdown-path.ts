/**
 * Which requests ask for a page as Markdown (src/llms/page-route.ts answers them): alone, without imports, so the
 * Worker's router tells them apart without bringing the page code into a Worker that serves none.
 */

/** The page path a request asks as Markdown (`/guides/install.md` → `/guides/install`, `/index.md` → `/`), or undefined. */
export function markdownPagePath(request: Request): string | undefined {
  const { pathname } = new URL(request.url);
  if (pathname.endsWith('.md')) {
    const page = pathname.slice(0, -'.md'.length);
    return page === '/index' || page === '' ? '/' : page.replace(/\/index$/, '');
  }
  // The page itself, asked for as Markdown (a client that says it prefers it, as Mintlify's pages answer).
  return /\btext\/markdown\b/.test(request.headers.get('accept') ?? '') ? pathname : undefined;
}
