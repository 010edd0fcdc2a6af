/**
 * `site-search/workers`: a complete Cloudflare Worker. To mount the search inside an existing Worker router instead,
 * call `createSearchHandler(options)` from `site-search` on your own route (docs/api.md).
 */
import { IttyRouter } from 'itty-router';
import { workersCache } from '../src/http/cache.js';
import { resolveConfig } from '../src/options/config.js';
import { SiteSearchConfigError } from '../src/errors.js';
import { createHandler, endpointNotFoundMessage, workerMissingBindingMessage, type HandlerRuntime } from '../src/http/handler.js';
import type { ResolvedConfig, SearchOptions } from '../src/options/options.js';

/**
 * A Worker that answers `apiRoute` (GET, HEAD, OPTIONS; 405 for other methods) and 404s everywhere else, with a JSON
 * `error` that names `apiRoute`.
 * The database is `env[binding]` (a D1 binding) unless `runtime.db` is given.
 *
 * @example export default createWorker({ database: 'my-site-search', sources: [...] });
 */
export function createWorker(options: SearchOptions | ResolvedConfig, runtime?: HandlerRuntime): ExportedHandler {
  const config = resolveConfig(options);
  if (config.apiRoute === false) {
    throw new SiteSearchConfigError(['apiRoute: createWorker needs a route to answer; set apiRoute (default "/api/search")']);
  }
  // Workers always have caches.default: the in-process cache is never needed here.
  const handler = createHandler(config, runtime ?? {}, workersCache, workerMissingBindingMessage);
  const endpointNotFound = endpointNotFoundMessage(config.apiRoute);
  const router = IttyRouter().all(config.apiRoute, (request: Request, env: object, ctx: ExecutionContext) =>
    handler(request, env, ctx),
  );
  return {
    async fetch(request, env, ctx) {
      return (await router.fetch(request, env, ctx)) ?? Response.json({ error: endpointNotFound }, { status: 404 });
    },
  };
}

/** The subset of a Workers ExportedHandler returned by {@link createWorker}. */
export interface ExportedHandler {
  fetch(request: Request, env: object, ctx: ExecutionContext): Promise<Response>;
}

interface ExecutionContext {
  waitUntil(promise: Promise<unknown>): void;
}
