/**
 * `site-search/sveltekit`: a `RequestHandler` for `+server.ts`.
 *
 * @example
 * // src/routes/api/search/+server.ts
 * export const GET = toSvelteKitHandler(options, { db: () => openSqlite('.site-search/search.db') });
 */
import { createSearchHandler, type HandlerRuntime, type ResolvedConfig, type SearchOptions } from '../src/index.js';
import { createDevSearchHandler, isDevServer } from '../src/http/dev-server.js';

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
