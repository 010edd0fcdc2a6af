import { endpointAnalytics, type EndpointAnalytics } from '../analytics/endpoint.js';
import { cacheKey, failSafeCache, type SearchCache } from './cache.js';
import { databaseFinder } from './database.js';
import { resolveConfig } from '../options/config.js';
import { billsRowsRead, forSearch } from '../db/d1.js';
import type { SearchDatabase } from '../db/types.js';
import { SearchInputError } from '../errors.js';
import { indexFailures, type IndexFailures } from './index-failures.js';
import type { ResolvedConfig, SearchOptions } from '../options/options.js';
import { normalizeSearchInput } from '../search/query.js';
import { codePointLength } from '../text/code-points.js';
import { MIN_QUERY_LENGTH } from '../text/query-length.js';
import { defaultCache } from './memory-cache.js';
import { foreignOriginCheck } from './origin-check.js';
import { runSearch } from '../search/search.js';
import { coverageRanking } from '../ranking/coverage.js';
import { literalRanking } from '../ranking/literal.js';
import type { Ranking } from '../ranking/types.js';
import { facetCounts } from '../search/facets.js';

/** Runtime objects for the handler (not options: they are not serialisable). */
export interface HandlerRuntime {
  /**
   * The database, or a function that returns it, called on the first request that needs it (so a route module can be
   * evaluated at build time, before an index exists). When absent, the handler uses `env[config.binding]`.
   */
  db?: SearchDatabase | (() => SearchDatabase);
  /** Response cache. Default: `caches.default` on Workers, else an in-memory LRU. `false` turns caching off. */
  cache?: SearchCache | false;
  /**
   * The public origin result URLs are resolved against (`https://docs.example.com`), over the `origin` option. Default:
   * the `origin` option, else the origin of the request's URL (which the adapters set to what the framework reports).
   */
  origin?: string;
  /**
   * With the `analytics` option on: the database analytics are written to, or a function that returns it (called on
   * the first write). Default: the search database, which is right on D1; a local index is opened read-only, so on
   * Node pass `() => openAnalytics(config)` from `site-search/node` (docs/analytics.md).
   */
  analytics?: SearchDatabase | (() => SearchDatabase | undefined);
  /**
   * The rankings this handler may answer with besides the default one (docs/ranking.md). `createSearchHandler` carries
   * SPEC.md's literal ranking (`ranking: 'fts5'`, `widen: false`) already; a Worker from `createWorker` is given it
   * only when configured so: `{ rankings: [literalRanking] }` from `site-search/literal-ranking`.
   */
  rankings?: readonly Ranking[];
}

/** The subset of an ExecutionContext the handler uses. */
export interface WaitUntilContext {
  waitUntil(promise: Promise<unknown>): void;
}

/** A Fetch handler: what every adapter mounts. */
export type SearchHandler = (request: Request, env?: object, ctx?: WaitUntilContext | null) => Promise<Response>;

const ALLOW = 'GET, HEAD, OPTIONS';
/** With analytics on, the box reports the result opened with a POST (docs/analytics.md, "Clicks"). */
const ALLOW_WITH_CLICKS = 'GET, HEAD, OPTIONS, POST';

/**
 * Creates the search endpoint as a standard Fetch handler. It answers whatever request it is given (frameworks do
 * the routing): GET and HEAD search, OPTIONS answers CORS preflight, other methods get 405.
 * Throws a `SiteSearchConfigError` at creation when the options are invalid.
 *
 * @example
 * const handler = createSearchHandler(options);
 * export default { fetch: (request, env, ctx) => handler(request, env, ctx) };
 */
export function createSearchHandler(options: SearchOptions | ResolvedConfig, runtime: HandlerRuntime = {}): SearchHandler {
  return createHandler(options, { ...runtime, rankings: runtime.rankings ?? [literalRanking] }, {
    fallbackCache: defaultCache,
    missingBinding: missingBindingMessage,
    analytics: endpointAnalytics,
    failures: indexFailures,
    originCheck: foreignOriginCheck,
  });
}

/** Makes the endpoint's analytics from the config (undefined when off): `endpointAnalytics`, or none for a Worker that did not import it. */
export type AnalyticsFactory = (config: ResolvedConfig) => EndpointAnalytics | undefined;

/**
 * What the handler is built with besides the options and the runtime: what `createSearchHandler` passes, and the Workers
 * entry a smaller part of, so that a Worker of its own ships only what it runs.
 * @internal
 */
export interface HandlerParts {
  /**
   * The cache when `runtime.cache` is absent: the Workers entry passes `caches.default` only, so the in-process cache
   * stays out of the Worker bundle.
   */
  fallbackCache(ttlSeconds: number): SearchCache | undefined;
  /** The 500's words for a missing binding (a Worker of its own says where its wrangler config is). */
  missingBinding(binding: string, found: unknown): string;
  /** The analytics the user imported: none by default, so a Worker without analytics does not ship their code. */
  analytics?: AnalyticsFactory;
  /** How a local index's failures are told and logged: none from a Worker, which has no file to damage. */
  failures?: () => IndexFailures;
  /**
   * The warning for result links built on an origin the browser did not ask from (a framework behind a proxy): none
   * from a Worker of its own, whose request URL is the one the browser asked.
   */
  originCheck?: () => (request: Request, linkOrigin: string) => void;
}

/**
 * The handler, built with `parts` ({@link HandlerParts}).
 * @internal
 */
export function createHandler(options: SearchOptions | ResolvedConfig, runtime: HandlerRuntime, parts: HandlerParts): SearchHandler {
  const config = resolveConfig(options);
  const rankings = [coverageRanking, ...(runtime.rankings ?? [])];
  const chosen = config.cacheMaxAge === 0 || runtime.cache === false ? undefined : (runtime.cache ?? parts.fallbackCache(config.cacheMaxAge));
  const cache = chosen && failSafeCache(chosen);
  const baseHeaders: Record<string, string> = config.cors ? { 'Access-Control-Allow-Origin': '*' } : {};
  const failures = parts.failures?.();
  const findDatabase = databaseFinder(config, runtime, parts.missingBinding, failures);

  const json = (status: number, body: unknown, cacheControl: string, extra: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': cacheControl, ...baseHeaders, ...extra },
    });
  const error = (status: number, message: string, extra?: Record<string, string>) =>
    json(status, { error: message }, 'no-store', extra);
  const publicCache = `public, max-age=${config.cacheMaxAge}`;
  const origin = runtime.origin ? new URL(runtime.origin).origin : config.origin || undefined;
  // An origin set on purpose is never second-guessed; one taken from the request may be the framework's mistake.
  const checkOrigin = parts.originCheck?.();
  const analytics = parts.analytics?.(config);
  const allow = analytics ? ALLOW_WITH_CLICKS : ALLOW;
  let ownAnalyticsDb: SearchDatabase | undefined;
  const analyticsDb = () => (typeof runtime.analytics === 'function' ? (ownAnalyticsDb ??= runtime.analytics()) : runtime.analytics);
  // Answers say analytics are on, so the box reports clicks only to an endpoint that counts them.
  const analyticsHeader: Record<string, string> = !analytics
    ? {}
    : config.cors
      ? { 'X-Search-Analytics': 'on', 'Access-Control-Expose-Headers': 'X-Search-Analytics' }
      : { 'X-Search-Analytics': 'on' };

  async function respond(request: Request, env: object | undefined, ctx: WaitUntilContext | null | undefined) {
    if (request.method === 'OPTIONS') return preflight(config, baseHeaders, allow);
    const click = analytics && request.method === 'POST';
    if (request.method !== 'GET' && request.method !== 'HEAD' && !click) {
      return error(405, `Method ${request.method} not allowed`, { Allow: allow });
    }

    const url = new URL(request.url);
    let input;
    if (!click) {
      try {
        const p = url.searchParams;
        const [tags, facets] = [p.getAll('tags'), p.getAll('facets')];
        input = normalizeSearchInput(config, { q: p.get('q'), limit: p.get('limit'), offset: p.get('offset'), type: p.get('type'), tags, facets });
      } catch (e) {
        if (e instanceof SearchInputError) return error(400, e.message);
        throw e;
      }
      if (codePointLength(input.q) < MIN_QUERY_LENGTH) {
        return json(200, { query: input.q, results: [], ...(input.facets.length ? { facets: facetCounts(input.facets) } : {}) }, publicCache);
      }
    }

    const found = findDatabase(env);
    if ('problem' in found) return error(500, found.problem);
    const { db } = found;
    const where = { env, analyticsDb, searchDb: db };

    if (!input) {
      try {
        await analytics!.clicked(request, origin ?? url.origin, where, ctx);
      } catch (e) {
        if (e instanceof SearchInputError) return error(400, e.message);
        throw e;
      }
      return new Response(null, { status: 204, headers: { 'Cache-Control': 'no-store', ...baseHeaders } });
    }

    if (!origin) checkOrigin?.(request, url.origin);
    const key = cache && cacheKey(url, input);
    const hit = key && (await cache.match(key));
    // A HEAD (a monitor, a link checker) is not a reader's search: only GETs are counted.
    const counted = analytics && request.method === 'GET' ? analytics : undefined;
    if (hit) {
      counted?.searched(input, hit.clone(), where, ctx);
      return withHeader(hit, 'X-Search-Cache', 'HIT');
    }

    let outcome;
    try {
      outcome = await runSearch(config, forSearch(db), input, { origin: origin ?? url.origin, rowsBilled: billsRowsRead(db), rankings });
    } catch (e) {
      return error(500, (await failures?.searchFailed(db, e)) ?? databaseErrorMessage(e));
    }
    const { suggestion, results, facets } = outcome;
    const body = { query: input.q, ...(suggestion ? { suggestion } : {}), results, ...(facets ? { facets } : {}) };
    const response = json(200, body, publicCache, { 'X-Search-Cache': 'MISS', ...analyticsHeader });
    counted?.searched(input, outcome, where, ctx);
    if (cache && key) {
      const write = cache.put(key, response.clone());
      // Rule 7: on platforms with a background hook the write must not delay the response.
      if (ctx && typeof ctx.waitUntil === 'function') ctx.waitUntil(write);
      else await write;
    }
    return response;
  }

  return async (request, env, ctx) => {
    const response = await respond(request, env, ctx);
    return request.method === 'HEAD' ? new Response(null, response) : response;
  };
}

function preflight(config: ResolvedConfig, baseHeaders: Record<string, string>, allow: string): Response {
  const headers: Record<string, string> = { Allow: allow, ...baseHeaders };
  if (config.cors) {
    headers['Access-Control-Allow-Methods'] = allow;
    headers['Access-Control-Allow-Headers'] = '*';
    headers['Access-Control-Max-Age'] = '86400';
  }
  return new Response(null, { status: 204, headers });
}

function withHeader(response: Response, name: string, value: string): Response {
  const copy = new Response(response.body, response);
  copy.headers.set(name, value);
  return copy;
}

/** What is wrong when `env[binding]` is not a database. */
function bindingProblem(binding: string, found: unknown): string {
  return found === undefined
    ? `Search database binding "${binding}" not found in the runtime environment.`
    : `Search database binding "${binding}" is not a database (found ${typeof found}).`;
}

/**
 * The 500 for a missing binding behind a framework's route: what is wrong and the two usual causes (docs/http-api.md,
 * "Errors").
 */
export function missingBindingMessage(binding: string, found: unknown): string {
  return (
    `${bindingProblem(binding, found)} Add a D1 database with binding "${binding}" to your wrangler config (d1_databases), ` +
    'or, in local development, enable the platform proxy of your hosting adapter, or pass { db } to the handler.'
  );
}

/**
 * The same 500 from a Worker of its own (`createWorker`): there the bindings come from the wrangler config alone, in
 * `wrangler dev` as once deployed; no hosting adapter or platform proxy is involved.
 */
export function workerMissingBindingMessage(binding: string, found: unknown): string {
  return (
    `${bindingProblem(binding, found)} Add it to the d1_databases of the Worker's wrangler config ` +
    `("binding": "${binding}" in wrangler.jsonc, binding = "${binding}" in wrangler.toml), then restart wrangler dev or deploy again.`
  );
}

/**
 * The 404 of a server that answers only the endpoint (a Worker, `site-search dev`): it names the endpoint, the usual
 * sign of a box or a link asking another path.
 */
export function endpointNotFoundMessage(apiRoute: string): string {
  return `Not found. The search endpoint is ${apiRoute}`;
}

/** The 500's words for a database error: what to run when the index is missing or damaged, else to read the log. */
export function databaseErrorMessage(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  if (/no such table/i.test(message)) {
    return 'Search index not found: the search_index table does not exist in this database. Run "npx site-search index" to build it (on D1: with --d1 local for wrangler dev, --d1 remote once deployed).';
  }
  console.error('[site-search] search query failed:', e);
  return 'Search failed: the database returned an error (see the server log).';
}
