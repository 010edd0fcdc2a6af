import { watch, type FSWatcher } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { openSqlite } from '../db/sqlite.js';
import { endpointAnalytics } from '../analytics/endpoint.js';
import { openAnalytics } from '../analytics/open.js';
import { renderHtmlReport } from '../analytics/report-html.js';
import { readStats } from '../analytics/stats.js';
import { resolveConfig } from '../options/config.js';
import type { ResolvedConfig } from '../options/options.js';
import type { SearchDatabase } from '../db/types.js';
import { createSearchHandler, endpointNotFoundMessage } from '../http/handler.js';
import { isLoopbackHostname } from '../http/loopback.js';
import { hostHeaderCount, toNodeListener } from '../http/node-listener.js';
import type { LoadedConfig } from './load-config.js';
import { devPage, documentPage, HIGHLIGHT_SCRIPT_ROUTE, UI_SCRIPT_ROUTE, type IndexedPage } from './page.js';
import { TABLE } from '../db/schema.js';
import { removeWordBreaks } from '../text/segment.js';

/** Where `site-search dev` serves the analytics report (a path no content page or endpoint uses). */
export const ANALYTICS_REPORT_ROUTE = '/_site-search/analytics';

export interface DevServer {
  url: string;
  close(): Promise<void>;
}

/**
 * The built `<site-search>` element. dist/cli.js and dist/ui.js sit side by side (as do the chunks this module may be
 * bundled into), so it is found relative to this file in the published package as in a local build.
 */
const UI_SCRIPT = new URL('./ui.js', import.meta.url);

/**
 * The built file a request for the element's scripts asks for: the element, the highlight script, or one of the
 * translations the element imports from beside itself (`/ui-locales/de.js`, relative to `/site-search-ui.js`).
 * `undefined` for any other path.
 */
function uiFile(path: string): URL | undefined {
  if (path === UI_SCRIPT_ROUTE) return UI_SCRIPT;
  if (path === HIGHLIGHT_SCRIPT_ROUTE) return new URL('./ui-highlight.js', import.meta.url);
  const locale = /^\/ui-locales\/([A-Za-z-]+)\.js$/.exec(path);
  return locale ? new URL(`./ui-locales/${locale[1]}.js`, import.meta.url) : undefined;
}

/**
 * Serves the endpoint over the local SQLite index at `apiRoute` and, at `/`, a page with the `<site-search>` element
 * (served from `/site-search-ui.js`), and calls `reindex` when a source file changes. Responses are not cached, so a
 * re-index shows at once.
 */
export async function startDevServer(
  loaded: LoadedConfig,
  {
    sqlitePath,
    port,
    host,
    cors = false,
    reindex,
    log,
  }: { sqlitePath: string; port: number; host: string; cors?: boolean; reindex: () => Promise<void>; log: (line: string) => void },
): Promise<DevServer> {
  const { config, cwd } = loaded;
  const apiRoute = config.apiRoute || '/api/search';
  const db = openSqlite(resolve(cwd, sqlitePath));
  const analyticsDb = config.analytics ? openAnalytics(config, { cwd }) : undefined;
  // The dev server holds content not yet published: no other web page may read it unless asked (--cors). Its one
  // reader wants the report to show a search at once: counts are written after every search.
  const devConfig = resolveConfig({ ...config, cors, analytics: config.analytics && { ...config.analytics, flushSeconds: 0 } });
  const search = toNodeListener(createSearchHandler(devConfig, { db, cache: false, analytics: analyticsDb }));
  const page = devPage(apiRoute, config.types);
  const serveMcp = mcpListener(devConfig, db, analyticsDb);
  const mcpRoute = config.mcp ? config.mcp.route : DEFAULT_MCP_ROUTE;
  // Result URLs point here, so each indexed page is served (as its indexed text) at its own path.
  const findPage = async (path: string): Promise<IndexedPage | undefined> => {
    const { results } = await db
      .prepare(`SELECT title, description, content, url FROM ${TABLE} WHERE url IN (?, ?) AND site = ? LIMIT 1`)
      .bind(path, path.endsWith('/') ? path.slice(0, -1) : `${path}/`, config.site)
      .all<Partial<IndexedPage>>();
    const found = results[0];
    return found && { title: removeWordBreaks(found.title ?? ''), description: removeWordBreaks(found.description ?? ''), content: removeWordBreaks(found.content ?? ''), url: found.url ?? path };
  };

  const notFound = (res: ServerResponse) => {
    res.writeHead(404, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ error: endpointNotFoundMessage(apiRoute) }));
  };
  const servePage = async (path: string, method: string, res: ServerResponse) => {
    const indexed = await findPage(path).catch(() => undefined);
    if (!indexed) return notFound(res);
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(method === 'HEAD' ? undefined : documentPage(indexed));
  };

  const serveReport = async (res: ServerResponse) => {
    if (!analyticsDb) {
      res.writeHead(404, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
      return void res.end(JSON.stringify({ error: '[site-search] Analytics are off: set analytics: true in the search options (docs/analytics.md).' }));
    }
    const stats = await readStats(analyticsDb, { site: config.site });
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(renderHtmlReport(stats));
  };

  const server = createServer((req, res) => {
    // The allowlist below reads the first Host only: with a second one, which host was meant is anyone's guess.
    if (hostHeaderCount(req) > 1) {
      res.writeHead(400, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
      return void res.end(JSON.stringify({ error: '[site-search] Bad request: more than one Host header (RFC 9112 allows one).' }));
    }
    if (!isLocalHost(req.headers.host)) {
      res.writeHead(403, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
      return void res.end(
        JSON.stringify({
          error: `[site-search] The dev server answers only localhost and IP addresses, not Host "${req.headers.host ?? ''}" (a defence against DNS rebinding). Open it as http://localhost:${listeningPort()}/ or by IP address.`,
        }),
      );
    }
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path === apiRoute) return void search(req, res);
    if (path === mcpRoute) return void serveMcp(req, res);
    if (path === '/' || path === '/index.html') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
      return void res.end(page);
    }
    const script = uiFile(path);
    if (script) return void serveUiScript(script, res);
    if (path === ANALYTICS_REPORT_ROUTE) return void serveReport(res).catch((e: Error) => log(`[site-search] analytics report failed: ${e.message}`));
    if (req.method === 'GET' || req.method === 'HEAD') return void servePage(path, req.method, res);
    notFound(res);
  });
  const listeningPort = () => {
    const address = server.address();
    return typeof address === 'object' && address ? address.port : port;
  };
  await new Promise<void>((ok, fail) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      fail(e.code === 'EADDRINUSE' ? new Error(`[site-search] port ${port} is in use. Pass --port <another port>.`) : e),
    );
    server.listen(port, host, ok);
  });
  const url = `http://${host}:${listeningPort()}`;

  const watchers = watchSources(loaded, debounce(() => {
    reindex().catch((e: Error) => log(`[site-search] re-index failed: ${e.message}`));
  }, 150));

  return {
    url,
    async close() {
      for (const w of watchers) w.close();
      await new Promise((done) => server.close(done));
      db.close();
      analyticsDb?.close();
    },
  };
}

/** Where `site-search dev` serves the MCP server when the `mcp` option does not say. */
export const DEFAULT_MCP_ROUTE = '/mcp';

/**
 * The MCP server over the local index (docs/mcp.md), so an author can point an assistant at the dev server. Loaded on
 * the first request: the SDK is an optional peer dependency, and a project without it gets a 501 saying what to install.
 */
function mcpListener(config: ResolvedConfig, db: SearchDatabase, analyticsDb: SearchDatabase | undefined): (req: IncomingMessage, res: ServerResponse) => void {
  let listener: Promise<(req: IncomingMessage, res: ServerResponse) => Promise<void>> | undefined;
  return (req, res) => {
    // Assistants' searches are counted as the endpoint's are (apart from them), in the same analytics file.
    listener ??= import('../mcp/handler.js').then(({ createMcpHandler }) =>
      toNodeListener(createMcpHandler(config, { db, analytics: analyticsDb, recordAnalytics: endpointAnalytics })),
    );
    listener.then(
      (serve) => serve(req, res),
      () => {
        listener = undefined;
        res.writeHead(501, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
        res.end(JSON.stringify({ error: '[site-search] The MCP server needs the SDK: npm install @modelcontextprotocol/server (docs/mcp.md).' }));
      },
    );
  };
}

/**
 * Whether a Host header names this machine the way a person opening the dev server does: `localhost` (and
 * `*.localhost`) or an IP address. A page on another site that rebinds its own name to 127.0.0.1 (DNS rebinding) still
 * sends its own name, and gets a 403: it cannot read unpublished content through the victim's browser.
 */
export function isLocalHost(host: string | undefined): boolean {
  return !!host && isLoopbackHostname(host.replace(/:\d+$/, ''));
}

/** Read per request, so a rebuilt dist/ui.js shows on reload without restarting the server. */
async function serveUiScript(file: URL, res: ServerResponse): Promise<void> {
  try {
    const script = await readFile(file);
    res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(script);
  } catch {
    res.writeHead(404, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ error: `${file.pathname} not found: build the package (npm run build).` }));
  }
}

function watchSources({ config, cwd }: LoadedConfig, onChange: () => void): FSWatcher[] {
  return config.sources.flatMap((source) => {
    const targets = source.dir ? [resolve(cwd, source.dir)] : (source.files ?? []).map((f) => resolve(cwd, f));
    return targets.map((target) =>
      watch(target, { recursive: Boolean(source.dir) }, (_event, name) => {
        if (!name || /\.(md|mdx)$/i.test(String(name)) || !source.dir) onChange();
      }),
    );
  });
}

function debounce(fn: () => void, ms: number): () => void {
  let timer: NodeJS.Timeout | undefined;
  return () => {
    clearTimeout(timer);
    timer = setTimeout(fn, ms);
  };
}
