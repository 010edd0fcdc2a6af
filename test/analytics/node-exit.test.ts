/**
 * A Node server's analytics as they stop and start (issue 45, item 4): a real child process running the built package
 * (`dist/`) writes the counts it holds when its event loop runs dry (`beforeExit`) and when it is sent SIGTERM, and
 * `analytics: true` over a read-only index without an analytics database says so once, naming `openAnalytics`.
 */
import { execFile, spawn } from 'node:child_process';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSearchHandler } from '../../src/index.js';
import { openSqlite } from '../../src/db/sqlite.js';
import { makeProject } from '../helpers/project.js';

const CLI = new URL('../../dist/cli.js', import.meta.url).pathname;
const DIST = new URL('../../dist/', import.meta.url).href;
// flushSeconds far off: only the stop can write what the first search's write left behind.
const options = { database: 'node-exit', sources: [{ dir: 'docs', type: 'doc', url: '/docs/:slug/' }], analytics: { flushSeconds: 3600 } };
const site = makeProject({
  'search.config.json': JSON.stringify(options),
  'docs/deploy.md': '---\ntitle: Deploy\n---\nRun wrangler deploy from the project.\n',
  'server.mjs': `
import { createSearchHandler } from '${DIST}index.js';
import { openAnalytics, openSqlite } from '${DIST}node.js';
const options = ${JSON.stringify(options)};
const handler = createSearchHandler(options, { db: () => openSqlite('.site-search/search.db'), analytics: () => openAnalytics(options) });
for (const q of ['wrangler deploy', 'deploy', 'wrangler deploy']) {
  const response = await handler(new Request('https://example.com/api/search?q=' + encodeURIComponent(q)));
  if (response.status !== 200) throw new Error('search answered ' + response.status);
}
if (process.argv[2] === 'serve') {
  setInterval(() => {}, 1000);
  console.log('ready');
}
`,
  // The endpoint and the MCP server, each with its analytics opened on the one file, as docs/mcp.md wires Node.
  'both.mjs': `
import { createSearchHandler } from '${DIST}index.js';
import { createMcpHandler } from '${DIST}mcp.js';
import { recordAnalytics } from '${DIST}analytics.js';
import { openAnalytics, openSqlite } from '${DIST}node.js';
const options = ${JSON.stringify(options)};
const runtime = () => ({ db: () => openSqlite('.site-search/search.db'), analytics: () => openAnalytics(options) });
const search = createSearchHandler(options, runtime());
const mcp = createMcpHandler(options, { ...runtime(), recordAnalytics });
for (const q of ['alpha', 'beta', 'alpha']) await (await search(new Request('https://example.com/api/search?q=' + q))).text();
const call = (id, query) => new Request('https://example.com/mcp', { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2025-06-18' }, body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'search', arguments: { query } } }) });
for (const [i, q] of ['gamma', 'delta', 'gamma'].entries()) await (await mcp(call(i + 1, q))).text();
setInterval(() => {}, 1000);
console.log('ready');
`,
});
afterAll(() => site.cleanup());

beforeAll(async () => {
  await promisify(execFile)(process.execPath, [CLI, 'index'], { cwd: site.dir });
}, 60_000);

function stored(): Record<string, number> {
  const db = new DatabaseSync(join(site.dir, '.site-search/analytics.db'), { readOnly: true });
  try {
    const rows = db.prepare('SELECT query, sum(searches) AS n FROM site_search_queries GROUP BY query').all() as { query: string; n: number }[];
    return Object.fromEntries(rows.map((r) => [r.query, Number(r.n)]));
  } finally {
    db.close();
  }
}

describe('a Node process and its analytics', () => {
  it('writes what it holds when its event loop runs dry (beforeExit)', async () => {
    await promisify(execFile)(process.execPath, ['server.mjs'], { cwd: site.dir });
    expect(stored()).toEqual({ 'wrangler deploy': 2, deploy: 1 });
  });

  it('writes what it holds on SIGTERM, then exits as SIGTERM would have', async () => {
    const child = spawn(process.execPath, ['server.mjs', 'serve'], { cwd: site.dir, stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((ready, failed) => {
      child.stdout.on('data', (chunk: Buffer) => String(chunk).includes('ready') && ready());
      child.on('exit', (code) => failed(new Error(`server exited early (${code})`)));
    });
    const exited = new Promise<NodeJS.Signals | null>((done) => child.on('exit', (_code, signal) => done(signal)));
    child.kill('SIGTERM');
    expect(await exited).toBe('SIGTERM');
    // The first test's three searches and these three.
    expect(stored()).toEqual({ 'wrangler deploy': 4, deploy: 2 });
  });

  // Issue 54, item 6: the two stores' writes at the stop met in one process; the second failed with "database is locked".
  it('two stores on one file (the endpoint\'s and the MCP server\'s) write all they hold on SIGTERM', async () => {
    const child = spawn(process.execPath, ['both.mjs'], { cwd: site.dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk));
    await new Promise<void>((ready, failed) => {
      child.stdout.on('data', (chunk: Buffer) => String(chunk).includes('ready') && ready());
      child.on('exit', (code) => failed(new Error(`server exited early (${code}): ${errors}`)));
    });
    const exited = new Promise<NodeJS.Signals | null>((done) => child.on('exit', (_code, signal) => done(signal)));
    child.kill('SIGTERM');
    expect(await exited).toBe('SIGTERM');
    expect(errors).not.toMatch(/analytics write failed|database is locked/);
    const db = new DatabaseSync(join(site.dir, '.site-search/analytics.db'), { readOnly: true });
    try {
      const rows = db.prepare("SELECT source, query, sum(searches) AS n FROM site_search_queries WHERE query IN ('alpha', 'beta', 'gamma', 'delta') GROUP BY source, query ORDER BY source, query").all();
      expect(rows.map((r) => [r.source, r.query, Number(r.n)])).toEqual([
        ['endpoint', 'alpha', 2],
        ['endpoint', 'beta', 1],
        ['mcp', 'delta', 1],
        ['mcp', 'gamma', 2],
      ]);
    } finally {
      db.close();
    }
  });

  it('analytics: true over a read-only index and no analytics database: one warning naming openAnalytics, at the first search', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const db = openSqlite(join(site.dir, '.site-search/search.db'));
      const handler = createSearchHandler({ ...options, analytics: true }, { db });
      for (const q of ['wrangler deploy', 'deploy', 'wrangler']) {
        expect((await handler(new Request(`https://example.com/api/search?q=${q}`))).status).toBe(200);
        await new Promise((tick) => setImmediate(tick));
      }
      expect(warn.mock.calls).toEqual([[expect.stringMatching(/^\[site-search\] analytics: true records nothing here: the index is opened read-only\. Pass \{ analytics: \(\) => openAnalytics\(options\) \}/)]]);
      expect(error).not.toHaveBeenCalled();
      db.close();
    } finally {
      warn.mockRestore();
      error.mockRestore();
    }
  });
});
