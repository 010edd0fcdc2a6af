/**
 * `GET <page path>.md`: a page of the index as Markdown, as `get_page` gives it (llmstxt.org's proposal, what Mintlify,
 * GitBook and Fumadocs serve), for assistants and tools that fetch a page rather than call the MCP server; and the
 * page's own path asked with `Accept: text/markdown`, where the request reaches the handler (docs/mcp.md, "Pages as
 * Markdown", says where it does).
 */
import { readPage } from '../db/pages.js';
import type { SearchDatabase } from '../db/types.js';
import { pageMarkdown, pathVariants } from '../mcp/page-markdown.js';
import type { ResolvedConfig } from '../options/options.js';
import { urlResolver } from '../search/urls.js';


/** The page at `path` as Markdown (200, `text/markdown`), or a 404 with the endpoint's JSON error. */
export async function pageMarkdownResponse(config: ResolvedConfig, db: SearchDatabase, path: string, origin: string): Promise<Response> {
  const page = await readPage(db, config.site, pathVariants(path));
  if (!page) return Response.json({ error: `No page at ${path.slice(0, 200)} in this site's index` }, { status: 404, headers: { 'Cache-Control': 'no-store' } });
  const headers = { 'Content-Type': 'text/markdown; charset=utf-8', 'Cache-Control': `public, max-age=${config.cacheMaxAge}`, Vary: 'Accept' };
  return new Response(pageMarkdown(page, urlResolver(origin)(page.url)), { headers });
}
