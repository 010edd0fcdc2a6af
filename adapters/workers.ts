/**
 * `site-search/workers`: a complete Cloudflare Worker. To mount the search inside an existing Worker router instead,
 * call `createSearchHandler(options)` from `site-search` on your own route (docs/api.md).
 */
import { workersCache } from '../src/http/cache.js';
import { resolveConfig } from '../src/options/config.js';
import { SiteSearchConfigError } from '../src/errors.js';
import { createHandler, endpointNotFoundMessage, workerMissingBindingMessage, type HandlerRuntime } from '../src/http/handler.js';
import type { ResolvedConfig, SearchOptions } from '../src/options/options.js';
import type { recordAnalytics } from '../src/analytics/index.js';
import type { createMcpHandler } from '../src/mcp/index.js';
import type { createLlmsHandler } from '../src/llms/index.js';
import { markdownPagePath } from '../src/llms/markdown-path.js';

/**
 * A Worker that answers `apiRoute` (GET, HEAD, OPTIONS; 405 for other methods) and 404s everywhere else, with a JSON
 * `error` that names `apiRoute`.
 * The database is `env[binding]` (a D1 binding) unless `runtime.db` is given. With the `analytics` option on, pass
 * `recordAnalytics` from `site-search/analytics` (docs/analytics.md): without it, a Worker ships no analytics code.
 * To serve the MCP server for AI assistants at the `mcp` option's route (`/mcp`), pass `createMcpHandler` from
 * `site-search/mcp` (docs/mcp.md): without it, a Worker ships no MCP code.
 *
 * @example export default createWorker({ database: 'my-site-search', sources: [...] });
 */
export function createWorker(options: SearchOptions | ResolvedConfig, runtime: WorkerRuntime = {}): ExportedHandler {
  const config = resolveConfig(options);
  if (config.apiRoute === false) {
    throw new SiteSearchConfigError(['apiRoute: createWorker needs a route to answer; set apiRoute (default "/api/search")']);
  }
  if (config.analytics && !runtime.recordAnalytics) {
    throw new SiteSearchConfigError([
      "analytics: createWorker records them through recordAnalytics: import { recordAnalytics } from 'site-search/analytics' and call createWorker(options, { recordAnalytics })",
    ]);
  }
  if ((config.ranking === 'fts5' || !config.widen) && !runtime.rankings?.some((r) => r.name === 'literal')) {
    throw new SiteSearchConfigError([
      `${config.widen ? "ranking: 'fts5'" : 'widen: false'}: SPEC.md's literal ranking is shipped only to a Worker given it: import { literalRanking } from 'site-search/literal-ranking' and call createWorker(options, { rankings: [literalRanking] })`,
    ]);
  }
  if (config.mcp && !runtime.mcp) {
    throw new SiteSearchConfigError([
      "mcp: pass createWorker(options, { mcp: createMcpHandler }), createMcpHandler from 'site-search/mcp'",
    ]);
  }
  // Workers always have caches.default: the in-process cache is never needed here. A Worker's request URL is the one
  // the browser asked, so result links always open from the page: no check of the page's origin either.
  const handler = createHandler(config, runtime, { fallbackCache: workersCache, missingBinding: workerMissingBindingMessage, analytics: runtime.recordAnalytics });
  const endpointNotFound = endpointNotFoundMessage(config.apiRoute);
  // The route is a path, as `site-search dev` serves it; trailing slashes are tolerated (`/api/search/`).
  const route = withoutTrailingSlashes(config.apiRoute);
  const mcp = runtime.mcp?.(config, { ...runtime, missingBinding: workerMissingBindingMessage });
  const mcpRoute = withoutTrailingSlashes(config.mcp ? config.mcp.route : '/mcp');
  const llms = runtime.llms?.(config, runtime);
  return {
    async fetch(request, env, ctx) {
      const path = withoutTrailingSlashes(new URL(request.url).pathname);
      if (path === route) return handler(request, env, ctx);
      if (mcp && path === mcpRoute) return mcp(request, env, ctx);
      if (llms && (path === '/llms.txt' || path === '/llms-full.txt' || markdownPagePath(request) !== undefined)) return llms(request, env, ctx);
      return Response.json({ error: endpointNotFound }, { status: 404 });
    },
  };
}

function withoutTrailingSlashes(path: string): string {
  return path.replace(/\/+$/, '');
}

/** What {@link createWorker} takes besides the options: the handler's runtime objects, and the analytics recorder. */
export interface WorkerRuntime extends HandlerRuntime {
  /** With the `analytics` option on: `recordAnalytics` from `site-search/analytics`. Required then, unused otherwise. */
  recordAnalytics?: typeof recordAnalytics;
  /** To serve the MCP server (docs/mcp.md): `createMcpHandler` from `site-search/mcp`. Required with the `mcp` option on. */
  mcp?: typeof createMcpHandler;
  /**
   * To serve `/llms.txt`, `/llms-full.txt` and each page as Markdown (`<page path>.md`, or its path with `Accept:
   * text/markdown`) from the index (docs/mcp.md): `createLlmsHandler` from `site-search/llms`.
   */
  llms?: typeof createLlmsHandler;
}

/** The subset of a Workers ExportedHandler returned by {@link createWorker}. */
export interface ExportedHandler {
  fetch(request: Request, env: object, ctx: ExecutionContext): Promise<Response>;
}

interface ExecutionContext {
  waitUntil(promise: Promise<unknown>): void;
}
