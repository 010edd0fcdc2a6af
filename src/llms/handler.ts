/**
 * `createLlmsHandler`: `/llms.txt` and `/llms-full.txt` served from the index (docs/mcp.md, "llms.txt"), at a cost that
 * does not grow with how often they are asked. Each file is written once per cache lifetime (`cacheMaxAge`) by one
 * pass over the index (keyset paging: a site of 10,000 pages is a handful of statements), up to
 * {@link LLMS_MAX_BYTES}; requests that arrive while it is written wait for that one writing. On Workers the answer is
 * kept in the Cache API, elsewhere the file is kept in memory, and every answer is streamed from it at the client's
 * pace. A database that fails answers the endpoint's 500, never a file: nothing is kept from a failed writing.
 */
import { forSearch } from '../db/d1.js';
import type { SearchDatabase } from '../db/types.js';
import { failSafeCache, workersCache } from '../http/cache.js';
import { databaseFinder } from '../http/database.js';
import { databaseErrorMessage, missingBindingMessage, type HandlerRuntime, type WaitUntilContext } from '../http/handler.js';
import { indexFailures } from '../http/index-failures.js';
import { resolveConfig } from '../options/config.js';
import type { ResolvedConfig, SearchOptions } from '../options/options.js';
import { urlResolver } from '../search/urls.js';
import { slotAddressing, writeFullFile, writeIndexFile } from './files.js';
import { TemplateWriter, templateStream, type Template } from './template.js';
import { markdownPagePath } from './markdown-path.js';
import { pageMarkdownResponse } from './page-route.js';

/**
 * The most a served llms.txt or llms-full.txt holds, in bytes: more text than the largest context window takes whole
 * (about 2.5 million tokens), written in well under a second of CPU. A file that would pass it stops before the page
 * that would, and says so in its last line (llms-full.txt points to llms.txt and `get_page`); the pages past it are
 * not read. The files the CLI writes are whole.
 */
export const LLMS_MAX_BYTES = 10 * 2 ** 20;

/** The routes a Worker serves them at. */
const ROUTES = { '/llms.txt': 'index', '/llms-full.txt': 'full' } as const;
type Route = (typeof ROUTES)[keyof typeof ROUTES];

/** Where the files are written against: an origin the URL parser resolves paths on, cut off again for the slot. */
const PLACEHOLDER = 'http://origin.invalid';

/**
 * A Fetch handler answering `/llms.txt` and `/llms-full.txt` from the index (a D1 binding, or `runtime.db`), on the
 * request's origin (or the `origin` option), and each page as Markdown at `<page path>.md` (or its path asked with
 * `Accept: text/markdown`). Pass it to `createWorker(options, { llms: createLlmsHandler })`.
 */
export function createLlmsHandler(
  options: SearchOptions | ResolvedConfig,
  runtime: Pick<HandlerRuntime, 'db' | 'origin' | 'cache'> = {},
): (request: Request, env?: object, ctx?: WaitUntilContext | null) => Promise<Response> {
  const config = resolveConfig(options);
  // A local index (`runtime.db`) has its failures told and logged as the endpoint tells them: one line at a time.
  const failures = runtime.db ? indexFailures() : undefined;
  const findDatabase = databaseFinder(config, runtime, missingBindingMessage, failures);
  const platformCache = config.cacheMaxAge === 0 || runtime.cache === false ? undefined : (runtime.cache ?? workersCache());
  const cache = platformCache && failSafeCache(platformCache);
  // Without a platform cache (Node) the written files are kept here, for as long as an answer is cached.
  const files = fileStore(cache ? 0 : config.cacheMaxAge * 1000);
  const headers = { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': `public, max-age=${config.cacheMaxAge}` };
  const failure = (message: string) => Response.json({ error: message }, { status: 500, headers: { 'Cache-Control': 'no-store' } });
  const addressing = slotAddressing(urlResolver(PLACEHOLDER), PLACEHOLDER);

  const write = async (route: Route, db: SearchDatabase): Promise<Template> => {
    const out = new TemplateWriter(LLMS_MAX_BYTES);
    // Reads go to the nearest read replica where the database has them (D1), as a search's do.
    const read = forSearch(db);
    await (route === 'full' ? writeFullFile : writeIndexFile)(config, read, out, {}, addressing);
    return out.finish();
  };

  /** A page as Markdown (page-route.ts), kept in the cache as the files are. */
  const markdownPage = async (request: Request, env: object | undefined, ctx: WaitUntilContext | null | undefined, page: string, origin: string) => {
    const key = `${origin}${page}.md`;
    const hit = await cache?.match(key);
    if (hit) return request.method === 'HEAD' ? new Response(null, hit) : hit;
    const found = findDatabase(env);
    if ('problem' in found) return failure(found.problem);
    let response: Response;
    try {
      response = await pageMarkdownResponse(config, forSearch(found.db), page, origin);
    } catch (e) {
      return failure((await failures?.searchFailed(found.db, e)) ?? databaseErrorMessage(e));
    }
    if (cache && response.ok && request.method === 'GET') {
      const kept = cache.put(key, response.clone());
      if (ctx && typeof ctx.waitUntil === 'function') ctx.waitUntil(kept);
      else await kept;
    }
    return request.method === 'HEAD' ? new Response(null, response) : response;
  };

  return async (request, env, ctx) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return new Response(null, { status: 405, headers: { Allow: 'GET, HEAD' } });
    const url = new URL(request.url);
    const path = url.pathname.replace(/\/+$/, '');
    const origin = runtime.origin ? new URL(runtime.origin).origin : config.origin || url.origin;
    const page = path.endsWith('/llms.txt') || path.endsWith('/llms-full.txt') ? undefined : markdownPagePath(request);
    if (page !== undefined) return markdownPage(request, env, ctx, page, origin);
    const route: Route = path.endsWith('/llms-full.txt') ? 'full' : 'index';
    const key = `${origin}${route === 'full' ? '/llms-full.txt' : '/llms.txt'}`;
    const hit = await cache?.match(key);
    if (hit) return request.method === 'HEAD' ? new Response(null, hit) : hit;

    const found = findDatabase(env);
    if ('problem' in found) return failure(found.problem);
    let file: Template;
    try {
      file = await files.get(route, () => write(route, found.db));
    } catch (e) {
      return failure((await failures?.searchFailed(found.db, e)) ?? databaseErrorMessage(e));
    }
    if (cache && request.method === 'GET') {
      // A stream of its own from the kept file: the client's stream is not teed, so a slow client holds no copy.
      const kept = cache.put(key, new Response(templateStream(file, origin), { headers }));
      if (ctx && typeof ctx.waitUntil === 'function') ctx.waitUntil(kept);
      else await kept;
    }
    return new Response(request.method === 'HEAD' ? null : templateStream(file, origin), { headers });
  };
}

/**
 * The written files: one writing at a time per route (requests that arrive meanwhile wait for it), kept `keepMs` once
 * written (0: not kept, a platform cache keeps the answers). A writing that fails is not kept: the next request tries.
 */
function fileStore(keepMs: number) {
  const kept = new Map<Route, { file: Template; until: number }>();
  const writing = new Map<Route, Promise<Template>>();
  return {
    get(route: Route, write: () => Promise<Template>): Promise<Template> {
      const hit = kept.get(route);
      if (hit && hit.until > Date.now()) return Promise.resolve(hit.file);
      let pending = writing.get(route);
      if (!pending) {
        pending = write()
          .then((file) => {
            if (keepMs > 0) kept.set(route, { file, until: Date.now() + keepMs });
            return file;
          })
          .finally(() => writing.delete(route));
        writing.set(route, pending);
      }
      return pending;
    },
  };
}
