/**
 * The endpoint's and the MCP server's analytics in one file, as docs/analytics.md and docs/mcp.md wire a Node app
 * (issue 54, item 6): the app's production server counts readers' searches (`/api/counted`) and assistants' (the
 * official MCP client on `/mcp-counted`), holds them in memory (`flushSeconds: 3600`), and is stopped with a real
 * SIGTERM; every count of both must be in the file. Before, the two stores' writes at the stop met in one process and
 * the second failed with `analytics write failed … database is locked`: the counts it held were lost.
 */
import { existsSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { expect, it } from 'vitest';
import { freePort, start } from './harness.js';

/** `command(port)` starts the built app in `dir()` with `env(port)`; the MCP route is `mcp`, the endpoint `endpoint`. */
export function analyticsOnExitSuite(
  dir: () => Promise<string>,
  command: (port: number) => string[],
  { env = () => ({}), endpoint = '/api/counted', mcp = '/mcp-counted' }: { env?: (port: number) => Record<string, string>; endpoint?: string; mcp?: string } = {},
): void {
  it('writes every count of the endpoint and the MCP server, one analytics file, when the server gets SIGTERM', async () => {
    const cwd = await dir();
    const file = join(cwd, '.site-search/analytics.db');
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
    const port = await freePort();
    const app = await start(command(port), { cwd, port, env: env(port) });
    let stopped = false;
    try {
      for (const q of ['install', 'launch', 'install', 'options']) expect((await fetch(`${app.origin}${endpoint}?q=${q}`)).status, q).toBe(200);
      const client = new Client({ name: 'site-search-exit-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${app.origin}${mcp}`)));
      try {
        for (const query of ['getting started', 'search', 'getting started', 'hostile']) {
          expect((await client.callTool({ name: 'search', arguments: { query } })).isError, query).toBeFalsy();
        }
      } finally {
        await client.close();
      }
      await app.stop();
      stopped = true;
    } finally {
      if (!stopped) await app.stop();
    }
    expect(app.output()).not.toMatch(/analytics write failed|database is locked/);
    expect(existsSync(file)).toBe(true);
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      const rows = db.prepare('SELECT source, query, sum(searches) AS n FROM site_search_queries GROUP BY source, query ORDER BY source, query').all();
      expect(rows.map((r) => [r.source, r.query, Number(r.n)])).toEqual([
        ['endpoint', 'install', 2],
        ['endpoint', 'launch', 1],
        ['endpoint', 'options', 1],
        ['mcp', 'getting started', 2],
        ['mcp', 'hostile', 1],
        ['mcp', 'search', 1],
      ]);
    } finally {
      db.close();
    }
  }, 120_000);
}
