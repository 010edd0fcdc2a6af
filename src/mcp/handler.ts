/**
 * `createMcpHandler`: the Model Context Protocol over Streamable HTTP, stateless (each request gets a fresh server,
 * nothing is kept between requests, so Workers and serverless functions serve it), answering with JSON. The protocol
 * is the official SDK's; this module decides what reaches it: POST only, from the site's own origin (or no browser at
 * all), on a loopback server only under a loopback Host, a bounded body and batch.
 */
import { coverageRanking } from '../ranking/coverage.js';
import { literalRanking } from '../ranking/literal.js';
import {
  createMcpHandler as sdkMcpHandler,
  isLegacyRequest,
  readRequestBody,
  WebStandardStreamableHTTPServerTransport,
  type McpServer,
} from '@modelcontextprotocol/server';
import { SiteSearchError } from '../errors.js';
import type { SearchDatabase } from '../db/types.js';
import { databaseErrorMessage, missingBindingMessage, type AnalyticsFactory, type HandlerRuntime, type WaitUntilContext } from '../http/handler.js';
import { databaseFinder } from '../http/database.js';
import { indexFailures } from '../http/index-failures.js';
import { cameOverLoopback, isLoopbackHostname } from '../http/loopback.js';
import { isDevServer } from '../http/dev-server.js';
import { failSafeCache } from '../http/cache.js';
import { defaultCache } from '../http/memory-cache.js';
import { replyCache } from './reply-cache.js';
import { resolveConfig } from '../options/config.js';
import type { ResolvedConfig, SearchOptions } from '../options/options.js';
import { toolServer, type ToolContext } from './tools.js';

/** The largest request body read, in bytes: a tool call is a few hundred; an `initialize` a few thousand. */
export const MAX_MCP_BODY_BYTES = 64 * 1024;
/** The most messages a JSON-RPC batch (2025-03-26 clients) may carry. */
export const MAX_MCP_BATCH = 10;

/** A Fetch handler answering MCP, mounted at `/mcp` by the integrations. */
export type McpHandler = (request: Request, env?: object, ctx?: WaitUntilContext | null) => Promise<Response>;

/** Runtime objects for {@link createMcpHandler}: the search handler's (`db`, `origin`, `analytics`, `cache`, `rankings`). */
export interface McpRuntime extends Pick<HandlerRuntime, 'db' | 'origin' | 'analytics' | 'cache' | 'rankings'> {
  /**
   * With the `analytics` option on: `recordAnalytics` from `site-search/analytics`, so the `search` tool's searches are
   * counted, apart from readers' (docs/analytics.md). Passed by the runtime rather than imported, so a Worker serving
   * MCP without analytics ships no analytics code.
   */
  recordAnalytics?: AnalyticsFactory;
  /**
   * Registers more tools on each request's server (after the three of site-search).
   * @internal Tests only: the conformance suite calls a tool of its own.
   */
  extraTools?: (server: McpServer) => void;
  /** The 500's words for a missing binding (a Worker of its own says where its wrangler config is). @internal */
  missingBinding?: (binding: string, found: unknown) => string;
  /**
   * Whether a framework's dev server serves the handler (default: `NODE_ENV` is `development`, as `next dev` and
   * `vite dev` set it); the Astro integration says so itself, since workerd may have no `NODE_ENV`. A dev server
   * listens on this machine, so a foreign Host is refused as on a loopback server (DNS rebinding). @internal
   */
  devServer?: boolean;
}

/**
 * Creates the MCP server for AI assistants (docs/mcp.md) as a Fetch handler over the same index, options and limits
 * as `createSearchHandler`: tools `search`, `get_page` and `list_pages`. Read-only. The database is `runtime.db`, else
 * `env[binding]` (a D1 binding). Throws a `SiteSearchConfigError` at creation when the options are invalid.
 *
 * @example
 * const mcp = createMcpHandler(options, { db: () => openSqlite(config.sqlitePath) });
 * http.createServer(toNodeListener(mcp)).listen(8787, '127.0.0.1');
 */
export function createMcpHandler(options: SearchOptions | ResolvedConfig, runtime: McpRuntime = {}): McpHandler {
  const config = resolveConfig(options);
  const configuredOrigin = runtime.origin ? new URL(runtime.origin).origin : config.origin || undefined;
  const missingBinding = runtime.missingBinding ?? missingBindingMessage;
  // A local index (the runtime's `db`) has its failures told and logged as the endpoint tells them: one line at a time.
  const failures = runtime.db ? indexFailures() : undefined;
  const findDatabase = databaseFinder(config, runtime, missingBinding, failures);
  const analytics = runtime.recordAnalytics?.(config);
  // The endpoint's rankings: the default one, and SPEC.md's literal one unless the runtime says which it carries.
  const rankings = [coverageRanking, ...(runtime.rankings ?? [literalRanking])];
  if (config.analytics && !runtime.recordAnalytics) {
    console.warn("[site-search] analytics: the MCP server counts no searches without recordAnalytics: createMcpHandler(options, { ..., recordAnalytics }), recordAnalytics from 'site-search/analytics' (docs/analytics.md).");
  }
  let ownAnalyticsDb: SearchDatabase | undefined;
  const analyticsDb = () => (typeof runtime.analytics === 'function' ? (ownAnalyticsDb ??= runtime.analytics()) : runtime.analytics);
  const devServer = runtime.devServer ?? isDevServer();
  // Replies are kept as the endpoint keeps its answers, but for a dev server, whose index changes as its author writes.
  const cache = devServer || config.cacheMaxAge === 0 || runtime.cache === false ? undefined : failSafeCache(runtime.cache ?? defaultCache(config.cacheMaxAge));
  const replies = cache && replyCache(cache, config.cacheMaxAge);

  return async (request, env, ctx) => {
    const url = new URL(request.url);
    const origin = configuredOrigin ?? url.origin;
    const refused = refusal(request, url, origin, configuredOrigin, devServer);
    if (refused) return refused;

    let body: Awaited<ReturnType<typeof readRequestBody>>;
    try {
      body = await readRequestBody(request, MAX_MCP_BODY_BYTES);
    } catch {
      // The client closed the connection before the end of its body: nothing to parse, nothing worth a log line.
      return rpcError(400, -32600, 'Bad request: the body ended before its end (the client closed the connection)');
    }
    if (body.tooLarge) return rpcError(413, -32600, `Request body too large (max ${MAX_MCP_BODY_BYTES} bytes)`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.text);
    } catch {
      return rpcError(400, -32700, 'Parse error: the body must be a JSON-RPC message');
    }
    if (Array.isArray(parsed) && parsed.length > MAX_MCP_BATCH) {
      return rpcError(400, -32600, `Batch too large (at most ${MAX_MCP_BATCH} messages)`);
    }

    let read = false;
    const context: ToolContext = {
      origin,
      route: `${origin}${url.pathname.replace(/\/+$/, '')}`,
      ...(replies ? { replies } : {}),
      claimRead: () => !read && (read = true),
      db() {
        const found = findDatabase(env);
        if ('problem' in found) throw new SiteSearchError(found.problem);
        return found.db;
      },
      async failed(e) {
        const found = findDatabase(env);
        return ('db' in found && (await failures?.searchFailed(found.db, e))) || databaseErrorMessage(e);
      },
      rankings,
      ...(analytics ? { searched: (input, outcome) => analytics.searched(input, outcome, { env, analyticsDb, searchDb: context.db() }, ctx, 'mcp') } : {}),
    };
    const server = () => {
      const s = toolServer(config, context);
      runtime.extraTools?.(s);
      return s;
    };
    // The body is read; the SDK gets a request it can read again, and the parsed message.
    const headers = new Headers(request.headers);
    // The text is re-encoded: a length the client declared for other bytes must not travel with it.
    headers.delete('content-length');
    const forward = new Request(request.url, { method: 'POST', headers, body: body.text });
    if (await isLegacyRequest(forward, parsed, { maxRequestBodySize: MAX_MCP_BODY_BYTES })) return legacy(server(), forward, parsed);
    // 2026-07-28 clients: the SDK's per-request entry, JSON unless a tool streamed (none does).
    return sdkMcpHandler(server, { legacy: 'reject', maxRequestBodySize: MAX_MCP_BODY_BYTES }).fetch(forward, { parsedBody: parsed });
  };
}

/**
 * A 2025-era request (initialize first, then a request per call), served statelessly with a JSON answer: the SDK's own
 * stateless fallback answers with an event stream, which clients read as well but a plain `curl` does not.
 */
async function legacy(server: McpServer, request: Request, parsedBody: unknown): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, { parsedBody });
  } finally {
    void transport.close().catch(() => {});
    void server.close().catch(() => {});
  }
}

/**
 * Why a request is refused before the protocol sees it, or undefined: not a POST (the server is stateless, so it opens
 * no stream and ends no session), a browser page of another origin (`Origin` is the site's own or absent: assistants
 * send none), or a loopback server or a framework's dev server asked under another Host (DNS rebinding).
 */
function refusal(request: Request, url: URL, origin: string, configuredOrigin: string | undefined, devServer: boolean): Response | undefined {
  if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: { Allow: 'POST' } });
  if (request.method !== 'POST') {
    return rpcError(405, -32000, `Method ${request.method} not allowed: this MCP server is stateless and answers POST only`, { Allow: 'POST' });
  }
  const from = request.headers.get('origin');
  if (from !== null && from !== origin) {
    return rpcError(403, -32000, `Forbidden: requests from ${from.slice(0, 100)} are refused; this MCP server answers ${origin} and clients that send no Origin`);
  }
  if ((devServer || cameOverLoopback(request)) && !isLoopbackHostname(url.hostname) && url.host !== (configuredOrigin && new URL(configuredOrigin).host)) {
    const server = devServer ? 'a dev server' : 'a server on a loopback address';
    return rpcError(403, -32000, `Forbidden: Host ${url.host.slice(0, 100)} is not this machine; ${server} answers localhost and IP addresses (or the origin option's host)`);
  }
  return undefined;
}

/** A JSON-RPC error answer (no request id: it is refused before any message is read). */
function rpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return Response.json(
    { jsonrpc: '2.0', error: { code, message }, id: null },
    { status, headers: { 'Cache-Control': 'no-store', ...headers } },
  );
}
