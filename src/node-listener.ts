import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SearchHandler } from './handler.js';

/**
 * Adapts a Fetch handler to `node:http` (`http.createServer(toNodeListener(handler))`). The search endpoint only
 * reads the URL and method, so request bodies are not forwarded.
 */
export function toNodeListener(handler: SearchHandler, { env }: { env?: object } = {}) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      const host = req.headers.host ?? 'localhost';
      // Behind a TLS-terminating proxy, result URLs must say https.
      const proto = String(req.headers['x-forwarded-proto'] ?? '').split(',')[0]!.trim() === 'https' ? 'https' : 'http';
      const request = new Request(new URL(req.url ?? '/', `${proto}://${host}`), {
        method: req.method,
        headers: Object.entries(req.headers).flatMap(([name, value]) =>
          value === undefined ? [] : (Array.isArray(value) ? value : [value]).map((v): [string, string] => [name, v]),
        ),
      });
      const response = await handler(request, env);
      res.writeHead(response.status, [...response.headers].flat());
      res.end(response.body ? Buffer.from(await response.arrayBuffer()) : undefined);
    } catch (e) {
      console.error('[site-search] request failed:', e);
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: 'Internal error' }));
    }
  };
}
