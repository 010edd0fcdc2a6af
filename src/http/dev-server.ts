import { createSearchHandler, type HandlerRuntime, type SearchHandler } from './handler.js';
import type { ResolvedConfig, SearchOptions } from '../options/options.js';

/**
 * True under a framework's dev server: `next dev` and `vite dev` (SvelteKit, Astro) set `NODE_ENV` to `development`
 * before they load a route; their production servers do not. Read through `globalThis` so a bundler's `define` of
 * `process.env.NODE_ENV` cannot fix the answer at build time, and so a runtime without `process` (workerd) reads false.
 * @internal
 */
export function isDevServer(): boolean {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.NODE_ENV === 'development';
}

/**
 * The endpoint for a dev server, where the index changes as the site's author writes: no answer is kept, neither in the
 * handler's cache nor in the browser (`Cache-Control: no-store`), so the next search after a re-index finds the new
 * text. `max-age=0` would still let a browser store the answer; `no-store` keeps it from ever being shown again.
 * @internal
 */
export function createDevSearchHandler(options: SearchOptions | ResolvedConfig, runtime?: HandlerRuntime): SearchHandler {
  const handler = createSearchHandler({ ...options, cacheMaxAge: 0 }, runtime);
  return async (request, env, ctx) => {
    const response = await handler(request, env, ctx);
    response.headers.set('Cache-Control', 'no-store');
    return response;
  };
}
