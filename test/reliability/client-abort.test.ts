/**
 * A client that gives up mid-request costs no stack in the server's log (issue 54, item 7): over real node:http
 * (`toNodeListener`), 50 requests whose connection closes partway through the body, on `/mcp` (a tool call) and on the
 * endpoint (a click report, analytics on), and downloads of llms-full.txt dropped after their first bytes. Before, each
 * abort logged `[site-search] request failed: Error: aborted` with a 246-byte stack.
 */
import { createServer, type Server } from 'node:http';
import { connect as tcp } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSearchHandler } from '../../src/index.js';
import { createMcpHandler } from '../../src/mcp/index.js';
import { createLlmsHandler } from '../../src/llms/index.js';
import { recordAnalytics } from '../../src/analytics/index.js';
import { openAnalytics, toNodeListener, type SqliteDatabase } from '../../adapters/node.js';
import { indexInMemory, sampleOptions } from '../mcp/helpers.js';
import { makeProject } from '../helpers/project.js';

const project = makeProject({});
const config = sampleOptions({ analytics: { flushSeconds: 0 } });
let db: SqliteDatabase;
let analyticsDb: SqliteDatabase;
let server: Server;
let port: number;

beforeAll(async () => {
  db = await indexInMemory(config);
  analyticsDb = openAnalytics(config, { cwd: project.dir });
  const mcp = createMcpHandler(config, { db, analytics: analyticsDb, recordAnalytics });
  const search = createSearchHandler(config, { db, analytics: analyticsDb });
  const llms = createLlmsHandler(config, { db });
  server = createServer(
    toNodeListener((request, env, ctx) => {
      const path = new URL(request.url).pathname;
      return path === '/mcp' ? mcp(request, env, ctx) : path.startsWith('/llms') ? llms(request, env, ctx) : search(request, env, ctx);
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
}, 60_000);

afterAll(() => {
  server?.close();
  db?.close();
  analyticsDb?.close();
  project.cleanup();
});

/** Sends `head` and the first part of a body its Content-Length says is longer, then closes the connection. */
function abortMidBody(path: string, start: string): Promise<void> {
  return new Promise((done, failed) => {
    const socket = tcp(port, '127.0.0.1', () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n${start}`,
      );
      setTimeout(() => socket.destroy(), 30);
    });
    socket.on('close', () => setTimeout(done, 20));
    socket.on('error', failed);
  });
}

/** Asks for `path`, reads its first chunk, and closes the connection. */
function abortMidAnswer(path: string): Promise<void> {
  return new Promise((done, failed) => {
    const socket = tcp(port, '127.0.0.1', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`));
    socket.once('data', () => socket.destroy());
    socket.on('close', () => setTimeout(done, 20));
    socket.on('error', failed);
  });
}

describe('a client that aborts', () => {
  it('costs no stack in the log: 50 requests cut off mid-body on /mcp and the endpoint, and dropped downloads', async () => {
    const logged: string[] = [];
    const spies = (['error', 'warn', 'log', 'info'] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(args.map((a) => (a instanceof Error ? a.stack : String(a))).join(' '))),
    );
    try {
      for (let i = 0; i < 25; i++) {
        await abortMidBody('/mcp', '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search",');
        await abortMidBody('/api/search', '{"q":"actions","url":');
      }
      for (let i = 0; i < 5; i++) await abortMidAnswer('/llms-full.txt');
      // The server still answers afterwards.
      expect((await fetch(`http://127.0.0.1:${port}/api/search?q=actions`)).status).toBe(200);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    expect(logged.join('\n')).not.toMatch(/\n\s+at /);
    expect(logged.join('\n').split('\n').filter(Boolean).length).toBeLessThanOrEqual(1);
  }, 60_000);
});
