/**
 * `site-search/next`: route handlers for the App Router.
 *
 * @example
 * // app/api/search/route.ts
 * export const { GET, HEAD, OPTIONS } = toNextHandler(options, { db: () => openSqlite('.site-search/search.db') });
 */
import { createSearchHandler, type HandlerRuntime, type ResolvedConfig, type SearchOptions } from '../src/index.js';
import { createDevSearchHandler, isDevServer } from '../src/http/dev-server.js';
import { isValidHost } from '../src/http/host.js';
import type { McpHandler } from '../src/mcp/index.js';

type RouteHandler = (request: Request) => Promise<Response>;

/** Where @opennextjs/cloudflare keeps the request's `{ env, ctx }` (what its `getCloudflareContext()` reads). */
const OPEN_NEXT_CONTEXT = Symbol.for('__cloudflare-context__');

/**
 * The search endpoint as Next.js route handlers. The database is `runtime.db` when given (a Node server), else the
 * `binding` of the Cloudflare env when the app runs on OpenNext. Under `next dev` no answer is cached, in the server
 * or the browser (`Cache-Control: no-store`), so a re-index shows in the next search.
 */
export function toNextHandler(
  options: SearchOptions | ResolvedConfig,
  runtime?: HandlerRuntime,
): { GET: RouteHandler; HEAD: RouteHandler; OPTIONS: RouteHandler; POST: RouteHandler } {
  const handler = isDevServer() ? createDevSearchHandler(options, runtime) : createSearchHandler(options, runtime);
  const route: RouteHandler = (request) => {
    const cloudflare = (globalThis as Record<symbol, { env?: object; ctx?: { waitUntil(p: Promise<unknown>): void } } | undefined>)[OPEN_NEXT_CONTEXT];
    return handler(onBrowserHost(request), cloudflare?.env, cloudflare?.ctx);
  };
  // POST carries the box's click reports when analytics are on (else a 405 like any other method).
  return { GET: route, HEAD: route, OPTIONS: route, POST: route };
}

/**
 * The MCP server (`createMcpHandler` from `site-search/mcp`, docs/mcp.md) as route handlers for `app/mcp/route.ts`,
 * on the host the client used and with the OpenNext Cloudflare env when there is one. Takes the handler rather than
 * the options, so `site-search/next` never imports the MCP SDK.
 *
 * @example
 * export const { GET, POST, OPTIONS } = toNextMcpHandler(createMcpHandler(options, { db: () => openSqlite('.site-search/search.db') }));
 */
export function toNextMcpHandler(handler: McpHandler): { GET: RouteHandler; POST: RouteHandler; OPTIONS: RouteHandler } {
  const route: RouteHandler = (request) => {
    const cloudflare = (globalThis as Record<symbol, { env?: object; ctx?: { waitUntil(p: Promise<unknown>): void } } | undefined>)[OPEN_NEXT_CONTEXT];
    return handler(onBrowserHost(request), cloudflare?.env, cloudflare?.ctx);
  };
  return { GET: route, POST: route, OPTIONS: route };
}

/**
 * The request on the host the browser used. `next start` reports every request URL (`request.url`, `nextUrl`) on
 * `localhost` whatever the Host header says, while its protocol is Next's own (it honours X-Forwarded-Proto). The Host
 * header is what the browser sent and is part of every cache key; X-Forwarded-Host is not used, because Next passes a
 * client's one through unchecked. Behind a proxy that rewrites Host, set the `origin` option (docs/security.md).
 */
function onBrowserHost(request: Request): Request {
  const host = request.headers.get('host');
  const url = new URL(request.url);
  if (!host || !isValidHost(host) || url.host === host) return request;
  return new Request(new URL(`${url.pathname}${url.search}`, `${url.protocol}//${host}`), request);
}
