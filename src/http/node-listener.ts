import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { SearchHandler } from './handler.js';
import { isValidHost } from './host.js';
import { isLoopbackAddress, markLoopback } from './loopback.js';
import { groupStatementsBy } from '../db/sqlite-pool.js';

/**
 * The remote address of the connection whose request is being answered. The index's worker pool takes clients in
 * turn by it: a client's backlog waits behind its own requests only. Held in memory while its statements wait or run
 * (and a second after), never written anywhere.
 */
const connectionAddress = new AsyncLocalStorage<string | undefined>();
const addressOfStatement = () => connectionAddress.getStore();

/**
 * Runs `work` as the client at `address`: the statements it starts wait behind that client's own. Registers the
 * reader each time (one assignment), so no import has to run for its side effect. @internal (the listener; tests)
 */
export function asClient<T>(address: string | undefined, work: () => T): T {
  groupStatementsBy(addressOfStatement);
  return connectionAddress.run(address, work);
}

/** Methods the Fetch API refuses to carry (`new Request` throws on them): answered here, before any Request exists. */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/**
 * Adapts a Fetch handler to `node:http` (`http.createServer(toNodeListener(handler))`). A search reads only the URL
 * and method; the body of a POST (a click report, with analytics on) is passed as a stream, which the handler stops
 * reading past its bound. A malformed request (a bad Host, more than one Host,
 * a method Fetch cannot express) gets a 400 or 405 with a JSON `error`; only a failure inside the handler is a 500,
 * and its stack goes to the server's log, never to the client.
 */
export function toNodeListener(handler: SearchHandler, { env }: { env?: object } = {}) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = (req.method ?? 'GET').toUpperCase();
    if (FORBIDDEN_METHODS.has(method)) return send(res, 405, 'Method not allowed', { Allow: 'GET, HEAD, OPTIONS' });
    if (hostHeaderCount(req) > 1) return send(res, 400, 'Bad request: more than one Host header');
    const host = req.headers.host ?? 'localhost';
    if (!isValidHost(host)) return send(res, 400, 'Bad request: invalid Host header');
    // Behind a TLS-terminating proxy, result URLs must say https.
    const proto = String(req.headers['x-forwarded-proto'] ?? '').split(',')[0]!.trim() === 'https' ? 'https' : 'http';
    const path = requestPath(req.url ?? '/');
    let request: Request;
    try {
      const body = method === 'POST' ? { body: Readable.toWeb(req) as ReadableStream, duplex: 'half' } : {};
      request = new Request(`${proto}://${host}${path}`, {
        method,
        ...body,
        headers: Object.entries(req.headers).flatMap(([name, value]) =>
          value === undefined ? [] : (Array.isArray(value) ? value : [value]).map((v): [string, string] => [name, v]),
        ),
      });
    } catch {
      return send(res, 400, 'Bad request');
    }
    // Only this listener sees the socket: the MCP handler refuses a foreign Host on a loopback server (DNS rebinding).
    if (isLoopbackAddress(req.socket.localAddress)) markLoopback(request);
    try {
      const response = await asClient(req.socket.remoteAddress, () => handler(request, env));
      res.writeHead(response.status, [...response.headers].flat());
      // Streamed, at the pace the client reads: a large answer (llms-full.txt) is never held whole, and a client that
      // stops reading stops the reading of the index behind it.
      if (response.body) await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream), res);
      else res.end();
    } catch (e) {
      // A client that closed its connection (mid-body, mid-answer) is ordinary traffic: nobody is left to answer, and
      // a stack per abort would bury the lines a person needs.
      if (req.socket.destroyed) return;
      console.error('[site-search] request failed:', e);
      if (!res.headersSent) send(res, 500, 'Internal error');
      else res.end();
    }
  };
}

/**
 * How many Host header lines a request has. RFC 9112 (3.2) says a server must answer 400 to more than one; Node keeps
 * the first in `req.headers.host` and drops the others silently, so a proxy that reads the last one and this server
 * would disagree about the origin of the result URLs.
 */
export function hostHeaderCount(req: IncomingMessage): number {
  let n = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i]!.toLowerCase() === 'host') n++;
  return n;
}

/**
 * The path and query of the request target. A path ("origin-form") is glued to the origin as it is, so "//x" stays a
 * path rather than naming a host; a full URL (what some proxies send) gives its path; anything else is "/".
 */
function requestPath(target: string): string {
  if (target.startsWith('/')) return target;
  try {
    const url = new URL(target);
    return url.pathname + url.search;
  } catch {
    return '/';
  }
}

function send(res: ServerResponse, status: number, error: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers });
  res.end(JSON.stringify({ error }));
}
