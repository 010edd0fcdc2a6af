/**
 * `site-search/sveltekit`: a `RequestHandler` for `+server.ts`.
 *
 * @example
 * // src/routes/api/search/+server.ts
 * export const GET = toSvelteKitHandler(options, { db: () => openSqlite('.site-search/search.db') });
 */
import { createSearchHandler, type HandlerRuntime, type ResolvedConfig, type SearchOptions } from '../src/index.js';
import { createDevSearchHandler, isDevServer } from '../src/http/dev-server.js';
import type { McpHandler } from '../src/mcp/index.js';

/** The part of SvelteKit's RequestEvent used here; `platform` is what adapter-cloudflare fills in. */
interface RequestEventLike {
  request: Request;
  platform?: { env?: object; ctx?: { waitUntil(p: Promise<unknown>): void }; context?: { waitUntil(p: Promise<unknown>): void } };
}

/**
 * The search endpoint as a SvelteKit handler: `runtime.db` when given, else `platform.env[binding]` (Cloudflare).
 * Under `vite dev` no answer is cached, in the server or the browser (`Cache-Control: no-store`), so a re-index shows
 * in the next search.
 */
export function toSvelteKitHandler(
  options: SearchOptions | ResolvedConfig,
  runtime?: HandlerRuntime,
): (event: RequestEventLike) => Promise<Response> {
  const handler = isDevServer() ? createDevSearchHandler(options, runtime) : createSearchHandler(options, runtime);
  // event.request.url is event.url: the origin adapter-node derives from ORIGIN (SvelteKit 2) or paths.origin
  // (SvelteKit 3), else PROTOCOL_HEADER/HOST_HEADER, else https:// and the Host header. See docs/frameworks/sveltekit.md.
  return ({ request, platform }) => handler(request, platform?.env, platform?.ctx ?? platform?.context);
}

/**
 * The MCP server (`createMcpHandler` from `site-search/mcp`, docs/mcp.md) as a SvelteKit handler for
 * `src/routes/mcp/+server.ts`, with `platform.env` and its `ctx` on Cloudflare. Takes the handler rather than the
 * options, so `site-search/sveltekit` never imports the MCP SDK.
 *
 * @example
 * export const POST = toSvelteKitMcpHandler(createMcpHandler(options, { db: () => openSqlite('.site-search/search.db') }));
 */
export function toSvelteKitMcpHandler(handler: McpHandler): (event: RequestEventLike) => Promise<Response> {
  return ({ request, platform }) => handler(request, platform?.env, platform?.ctx ?? platform?.context);
}
