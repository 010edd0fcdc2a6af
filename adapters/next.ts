/**
 * `site-search/next`: route handlers for the App Router.
 *
 * @example
 * // app/api/search/route.ts
 * export const { GET, HEAD, OPTIONS } = toNextHandler(options, { db: () => openSqlite('.site-search/search.db') });
 */
import { createSearchHandler, type HandlerRuntime, type ResolvedConfig, type SearchOptions } from '../src/index.js';

type RouteHandler = (request: Request) => Promise<Response>;

/** Where @opennextjs/cloudflare keeps the request's `{ env, ctx }` (what its `getCloudflareContext()` reads). */
const OPEN_NEXT_CONTEXT = Symbol.for('__cloudflare-context__');

/**
 * The search endpoint as Next.js route handlers. The database is `runtime.db` when given (a Node server), else the
 * `binding` of the Cloudflare env when the app runs on OpenNext.
 */
export function toNextHandler(
  options: SearchOptions | ResolvedConfig,
  runtime?: HandlerRuntime,
): { GET: RouteHandler; HEAD: RouteHandler; OPTIONS: RouteHandler } {
  const handler = createSearchHandler(options, runtime);
  const route: RouteHandler = (request) => {
    const cloudflare = (globalThis as Record<symbol, { env?: object; ctx?: { waitUntil(p: Promise<unknown>): void } } | undefined>)[OPEN_NEXT_CONTEXT];
    return handler(request, cloudflare?.env, cloudflare?.ctx);
  };
  return { GET: route, HEAD: route, OPTIONS: route };
}
