/**
 * llms.txt and llms-full.txt served on Node (issue 54, item 4), over a real index file of 3,000 pages of 8,000
 * characters (a llms-full.txt of about 25 MB whole): written once per cache lifetime by one pass over the index
 * however many ask at once, bounded in size with a last line that says so, and streamed at the client's pace. Six
 * concurrent downloads through node:http (`toNodeListener`, the built package in a server process of its own) raise the
 * server's peak memory by at most 150 MB; before, each download was written into memory whole (45 MB files took
 * 718 MB, still 983 MB after).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlite } from '../../adapters/node.js';
import { resolveConfig } from '../../src/options/config.js';
import { createLlmsHandler } from '../../src/llms/index.js';
import { LLMS_MAX_BYTES } from '../../src/llms/handler.js';
import { countQueries } from '../helpers/observe.js';
import { seed } from '../helpers/documents.js';
import { makeProject } from '../helpers/project.js';

const PAGES = 3_000;
const WORDS = ['river', 'canyon', 'meadow', 'harbor', 'glacier', 'orchard', 'prairie', 'lagoon', 'summit', 'delta'];
const options = { database: 'llms-serve', sources: [{ dir: 'docs', type: 'doc', url: '/docs/:slug/' }], mcp: { name: 'Big site' } };
const config = resolveConfig(options);
const project = makeProject({});
const index = join(project.dir, 'search.db');
const DIST = new URL('../../dist/', import.meta.url).href;

beforeAll(async () => {
  const db = openSqlite(index, { create: true });
  const body = (i: number) => Array.from({ length: 1_150 }, (_, w) => WORDS[(i + w) % WORDS.length]).join(' ');
  await seed(db, Array.from({ length: PAGES }, (_, i) => ({ title: `Page ${i}`, description: `About ${WORDS[i % 10]}`, content: body(i), url: `/docs/page-${String(i).padStart(5, '0')}/` })));
  db.close();
}, 120_000);
afterAll(() => project.cleanup());

const fetchText = async (handler: ReturnType<typeof createLlmsHandler>, path: string) => (await handler(new Request(`https://docs.example.com${path}`))).text();

describe('llms-full.txt on Node', () => {
  it('is written once for many requests at once, kept for the cache lifetime, and stops at its bound saying so', async () => {
    const { db, count } = countQueries(openSqlite(index));
    const handler = createLlmsHandler(config, { db });
    const texts = await Promise.all(Array.from({ length: 6 }, () => fetchText(handler, '/llms-full.txt')));
    const once = count();
    // One pass by keyset: 250 pages a statement, up to the bound.
    expect(once).toBeGreaterThan(0);
    expect(once).toBeLessThanOrEqual(Math.ceil(PAGES / 250));
    expect(new Set(texts).size).toBe(1);
    const text = texts[0]!;
    expect(new TextEncoder().encode(text).byteLength).toBeLessThanOrEqual(LLMS_MAX_BYTES + 64 * 1024);
    const pages = text.split('\n---\n\n').slice(1);
    expect(pages.length).toBeGreaterThan(100);
    expect(pages.length).toBeLessThan(PAGES);
    // Whole pages, then the note: where the others are listed and read.
    expect(pages.slice(0, -1).every((p) => /^# Page \d+\n\nURL: https:\/\/docs\.example\.com\/docs\/page-\d{5}\/\n/.test(p))).toBe(true);
    expect(pages.at(-1)).toBe('(This file stops at 10 MB, before the index\'s later pages: https://docs.example.com/llms.txt lists them, and the MCP server at https://docs.example.com/mcp reads any page with get_page.)\n');
    // Kept: the next request, on another origin too, reads nothing.
    expect(await fetchText(handler, '/llms-full.txt')).toBe(text);
    const other = await (await handler(new Request('http://localhost:4321/llms-full.txt'))).text();
    expect(other).toBe(text.replaceAll('https://docs.example.com', 'http://localhost:4321'));
    expect(count()).toBe(once);
    db.close();
  });

  it('llms.txt lists every page (titles and descriptions only) in one pass', async () => {
    const { db, count } = countQueries(openSqlite(index));
    const text = await fetchText(createLlmsHandler(config, { db }), '/llms.txt');
    expect(text.split('\n').filter((l) => l.startsWith('- ['))).toHaveLength(PAGES);
    expect(count()).toBe(Math.ceil(PAGES / 2_000));
    db.close();
  });
});

/** Starts the built package's node:http server for llms over the index; resolves with its port. */
function server(): Promise<{ child: ChildProcess; port: number }> {
  const script = `
import { createServer } from 'node:http';
import { createLlmsHandler } from '${DIST}llms.js';
import { openSqlite, toNodeListener } from '${DIST}node.js';
const handler = createLlmsHandler(${JSON.stringify(options)}, { db: () => openSqlite(${JSON.stringify(index)}) });
let peak = 0;
setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5).unref();
const server = createServer((req, res) => {
  if (req.url === '/__rss') return res.end(JSON.stringify({ rss: process.memoryUsage().rss, peak }));
  if (req.url === '/__reset') { peak = 0; return res.end('{}'); }
  return toNodeListener(handler)(req, res);
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;
  // A file, not `--input-type=module -e`: the index's worker threads inherit the flags, and run CommonJS.
  const file = join(project.dir, 'server.mjs');
  writeFileSync(file, script);
  const child = spawn(process.execPath, [file], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', (d: Buffer) => resolve({ child, port: Number(String(d).trim()) }));
    child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
  });
}

/** Downloads `path`, reading it a part at a time (each part taken 2 ms after the last); resolves with the bytes. */
function slowDownload(port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.byteLength;
        res.pause();
        setTimeout(() => res.resume(), 2);
      });
      res.on('end', () => resolve(bytes));
    }).on('error', reject);
  });
}

describe('six concurrent downloads through node:http', () => {
  let running: { child: ChildProcess; port: number } | undefined;
  afterAll(() => running?.child.kill());

  it('raise the server\'s peak memory by at most 150 MB, and each gets the whole file', async () => {
    running = await server();
    const { port } = running;
    const rss = async () => (await (await fetch(`http://127.0.0.1:${port}/__rss`)).json()) as { rss: number; peak: number };
    // Warm: the modules and the driver loaded, before the baseline.
    await fetch(`http://127.0.0.1:${port}/llms.txt`).then((r) => r.text());
    await fetch(`http://127.0.0.1:${port}/__reset`);
    const before = (await rss()).rss;
    const sizes = await Promise.all(Array.from({ length: 6 }, () => slowDownload(port, '/llms-full.txt')));
    const { peak } = await rss();
    expect(new Set(sizes).size).toBe(1);
    expect(sizes[0]).toBeGreaterThan(LLMS_MAX_BYTES * 0.9);
    console.log(`[llms-memory] peak rise ${Math.round((peak - before) / 2 ** 20)} MB (before ${Math.round(before / 2 ** 20)} MB)`);
    expect(peak - before, `peak ${Math.round(peak / 2 ** 20)} MB, before ${Math.round(before / 2 ** 20)} MB`).toBeLessThanOrEqual(150 * 2 ** 20);
  }, 120_000);
});
