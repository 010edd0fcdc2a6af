/**
 * What assistants' traffic costs a Worker on D1 (issue 54, items 2, 4 and 4b), in workerd (Miniflare) with a real D1
 * binding, the real Cache API and the astro-docs sample pushed by the indexer: statements and rows D1 reports it read
 * (`meta.rows_read`, what it bills), counted by test/workers/assistants-entry.ts. Before: llms-full.txt and llms.txt
 * read every page's text with `LIMIT 200 OFFSET n` on every request (32,484 rows at 1,831 pages, never cached), an MCP
 * search was never cached, a batch of 10 searches read ten searches' rows, `list_pages` paged by OFFSET, and
 * `get_page`, `list_pages` and llms read the primary rather than a replica.
 */
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchDatabase } from '../../src/index.js';
import { buildIndex, writeIndex } from '../../src/indexer/index.js';
import { ONE_READ_PER_REQUEST } from '../../src/mcp/tools.js';
import { bundleTestWorker } from '../helpers/worker-bundle.js';
import { sampleOptions } from '../mcp/helpers.js';

const ORIGIN = 'http://docs.test';
/** Pages in test/fixtures/astro-docs-sample. */
const PAGES = 48;
let mf: Miniflare;

beforeAll(async () => {
  mf = new Miniflare({ modules: true, script: await bundleTestWorker('assistants-entry.ts'), compatibilityDate: '2026-07-01', d1Databases: { SEARCH_DB: 'assistants-cost-db' } });
  const db = (await mf.getD1Database('SEARCH_DB')) as unknown as SearchDatabase;
  const config = sampleOptions();
  await writeIndex(db, config, (await buildIndex(config)).documents);
}, 120_000);
afterAll(() => mf?.dispose());

type Counts = { statements: number; rowsRead: number; direct: number; sql: string[] };
/** What `run` cost the database: statements, rows read, statements on the binding rather than a session, their SQL. */
async function cost(run: () => Promise<unknown>): Promise<Counts> {
  await mf.dispatchFetch(`${ORIGIN}/__reset`);
  await run();
  return (await (await mf.dispatchFetch(`${ORIGIN}/__db-calls`)).json()) as Counts;
}

/** Waits (bounded) until the Cache API holds `key`: the write runs in `ctx.waitUntil`, after the answer. */
async function cached(key: string): Promise<void> {
  const caches = (await mf.getCaches()) as unknown as { default: { match(key: string): Promise<Response | undefined> } };
  // Each body read to its end: a stream from workerd left open keeps Miniflare from stopping.
  const holds = async () => {
    const hit = await caches.default.match(key);
    await hit?.arrayBuffer();
    return hit !== undefined;
  };
  let held = false;
  for (let i = 0; i < 100 && !(held = await holds()); i++) await new Promise((r) => setTimeout(r, 50));
  expect(held, key).toBe(true);
}

/** How many parts of Markdown the index holds, for the page at `url` or for every page. */
async function markdownParts(url?: string): Promise<number> {
  const db = await mf.getD1Database('SEARCH_DB');
  const where = url ? ' WHERE page = (SELECT id FROM search_docs WHERE url = ?)' : '';
  const row = await db.prepare(`SELECT count(*) AS n FROM search_markdown${where}`).bind(...(url ? [url] : [])).first<{ n: number }>();
  return row!.n;
}

const get = (path: string, headers: Record<string, string> = {}) => mf.dispatchFetch(`${ORIGIN}${path}`, { headers });

let rpcId = 0;
/** One POST to /mcp carrying `calls` (a JSON-RPC batch when more than one), as a 2025-03-26 client sends it. */
async function mcp(calls: { name: string; arguments: Record<string, unknown> }[], headers: Record<string, string> = {}) {
  const messages = calls.map((params) => ({ jsonrpc: '2.0', id: ++rpcId, method: 'tools/call', params }));
  const res = await mf.dispatchFetch(`${ORIGIN}/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2025-03-26', ...headers },
    body: JSON.stringify(messages.length === 1 ? messages[0] : messages),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as unknown;
  return (Array.isArray(body) ? body : [body]) as { result: { isError?: boolean; content: { text: string }[]; structuredContent?: Record<string, unknown> } }[];
}

describe('llms.txt and llms-full.txt on D1', () => {
  it('llms.txt reads each page once (titles and descriptions, no text), in one statement, through a session; a repeat reads nothing', async () => {
    let text = '';
    const first = await cost(async () => (text = await (await get('/llms.txt')).text()));
    expect(text.split('\n').filter((l) => l.startsWith('- ['))).toHaveLength(PAGES);
    expect(first.statements).toBe(1);
    expect(first.direct).toBe(0);
    expect(first.sql.join('\n')).not.toMatch(/\bcontent\b|\bsections\b/);
    // search_docs and the full-text row of each page, and the one row past the batch that says it is the last.
    expect(first.rowsRead).toBeLessThanOrEqual(3 * PAGES);
    await cached(`${ORIGIN}/llms.txt`);
    const again = await cost(async () => expect(await (await get('/llms.txt')).text()).toBe(text));
    expect(again.statements).toBe(0);
  });

  it('llms-full.txt reads each page once, by keyset, never OFFSET, through a session; a repeat reads nothing', async () => {
    let text = '';
    const first = await cost(async () => (text = await (await get('/llms-full.txt')).text()));
    // A page as written may hold `---` lines of its own: the pages are counted by the lines that start them.
    expect(text.match(/\n---\n\n# [^\n]+\n\nURL: http:\/\/docs\.test\//g)).toHaveLength(PAGES);
    expect(first.statements).toBe(1);
    expect(first.direct).toBe(0);
    expect(first.sql.join('\n')).not.toMatch(/\bOFFSET\b/i);
    // Four rows a page as before its Markdown was kept, and two a part of its Markdown (its key and its row).
    expect(first.rowsRead).toBeLessThanOrEqual(4 * PAGES + 2 * (await markdownParts()));
    await cached(`${ORIGIN}/llms-full.txt`);
    const again = await cost(async () => expect(await (await get('/llms-full.txt')).text()).toBe(text));
    expect(again.statements).toBe(0);
  });
});

describe('the MCP tools on D1', () => {
  it('a search is cached by its arguments: the repeat, in other case and spacing, reads nothing', async () => {
    const first = await cost(() => mcp([{ name: 'search', arguments: { query: 'content collections', type: 'en', limit: 5 } }]));
    expect(first.statements).toBeGreaterThan(0);
    expect(first.direct).toBe(0);
    let answer: unknown;
    await new Promise((r) => setTimeout(r, 200));
    const again = await cost(async () => (answer = (await mcp([{ name: 'search', arguments: { query: '  Content COLLECTIONS ', type: 'en', limit: 5 } }]))[0]!.result));
    expect(again.statements).toBe(0);
    expect((answer as { structuredContent: { results: unknown[] } }).structuredContent.results).toHaveLength(5);
  });

  it('a batch of 10 searches reads the database for one of them; the others are told to come alone', async () => {
    const queries = ['astro components', 'deploy vercel', 'image optimization', 'server endpoints', 'middleware', 'routing', 'markdown', 'integrations', 'typescript', 'styles'];
    const alone = await cost(() => mcp([{ name: 'search', arguments: { query: 'astro components layout' } }]));
    let replies: Awaited<ReturnType<typeof mcp>> = [];
    const batch = await cost(async () => (replies = await mcp(queries.map((query) => ({ name: 'search', arguments: { query } })))));
    expect(replies).toHaveLength(10);
    expect(replies.filter((r) => !r.result.isError)).toHaveLength(1);
    expect(replies.filter((r) => r.result.isError).map((r) => r.result.content[0]!.text)).toEqual(Array(9).fill(ONE_READ_PER_REQUEST));
    // At most what one search reads: the statements of the one search answered.
    expect(batch.statements).toBeLessThanOrEqual(Math.max(alone.statements, 2));
    expect(batch.rowsRead).toBeLessThanOrEqual(3 * alone.rowsRead);
    // Each asked in a request of its own, and then in a batch again: all answered from the cache.
    for (const query of queries) await mcp([{ name: 'search', arguments: { query } }]);
    await new Promise((r) => setTimeout(r, 200));
    const repeat = await cost(async () => (replies = await mcp(queries.map((query) => ({ name: 'search', arguments: { query } })))));
    expect(replies.every((r) => !r.result.isError)).toBe(true);
    expect(repeat.statements).toBe(0);
  });

  it('list_pages reads only the rows it lists (keyset), at its last part too; get_page a few rows; both through a session', async () => {
    let replies: Awaited<ReturnType<typeof mcp>> = [];
    const all: string[] = [];
    let cursor: string | undefined = '';
    const parts: Counts[] = [];
    while (cursor !== undefined) {
      const at: string = cursor;
      parts.push(await cost(async () => (replies = await mcp([{ name: 'list_pages', arguments: at ? { cursor: at } : {} }]))));
      const { pages, nextCursor } = replies[0]!.result.structuredContent as { pages: { url: string }[]; nextCursor?: string };
      all.push(...pages.map((p) => p.url));
      cursor = nextCursor;
    }
    expect(all).toHaveLength(PAGES);
    // 50 a call: the 48 sample pages in one; each call reads its rows (two a page) and the one after.
    for (const part of parts) expect(part.rowsRead).toBeLessThanOrEqual(2 * 51 + 2);
    expect(parts.every((p) => p.direct === 0)).toBe(true);
    const typed = await cost(async () => (replies = await mcp([{ name: 'list_pages', arguments: { type: 'ja' } }])));
    expect((replies[0]!.result.structuredContent as { pages: { type: string }[] }).pages.every((p) => p.type === 'ja')).toBe(true);
    // The rows of the window (every page here), each read about four times (the (site, url) index, its row, the window
    // kept, its end), and the full-text rows of the pages listed.
    expect(typed.rowsRead).toBeLessThanOrEqual(5 * PAGES);
    const page = await cost(async () => (replies = await mcp([{ name: 'get_page', arguments: { url: '/en/guides/actions' } }])));
    expect(replies[0]!.result.content[0]!.text).toMatch(/^# Actions\n/);
    // The page's rows as before its Markdown was kept (10 at most), and its Markdown's parts (two here), each found by
    // the (page, part) key and read: two rows a part.
    expect(page.rowsRead).toBeLessThanOrEqual(10 + 2 * (await markdownParts('/en/guides/actions')));
    expect(page.direct).toBe(0);
  });
});

describe('a cache that throws', () => {
  it('is a miss: the endpoint, the MCP server and llms.txt answer from D1', async () => {
    const failing = { 'X-Test-Cache': 'failing' };
    for (let i = 0; i < 2; i++) {
      const res = await get('/api/search?q=actions&type=en', failing);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-search-cache')).toBe('MISS');
      expect(((await res.json()) as { results: unknown[] }).results.length).toBeGreaterThan(0);
      const [reply] = await mcp([{ name: 'search', arguments: { query: 'actions', type: 'en' } }], failing);
      expect(reply!.result.isError).toBeFalsy();
      const llms = await get('/llms.txt', failing);
      expect(llms.status).toBe(200);
      expect((await llms.text()).split('\n').filter((l) => l.startsWith('- ['))).toHaveLength(PAGES);
    }
  });
});
