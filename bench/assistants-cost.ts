/**
 * `npm run bench:assistants`: what assistants' traffic costs a Worker on D1 (issue 54, items 4 and 4b), at 2,000 and
 * 10,000 pages (the astro-docs corpus and generated copies of it, six languages): statements and rows D1 reports it
 * read (`meta.rows_read`, what it bills) for llms.txt, llms-full.txt and the MCP tools, the first time and repeated,
 * through the Worker a user exports (test/workers/assistants-entry.ts: `createWorker` with `createMcpHandler` and
 * `createLlmsHandler`, counted as it runs in workerd). Beside them, the statements llms-full.txt ran before (`LIMIT 200
 * OFFSET n`), run on the same database. And the CPU time of writing llms-full.txt once on Node (node:sqlite, the
 * 10,000-page latency index), the part of a Worker's time that grows with the site.
 */
import { Miniflare } from 'miniflare';
import { createLlmsHandler } from '../src/llms/index.js';
import { openSqlite } from '../src/db/sqlite.js';
import { pushStatements } from '../src/indexer/index.js';
import type { SearchDatabase } from '../src/db/types.js';
import { DOCS_TABLE, SECTIONS_TABLE, TABLE } from '../src/db/schema.js';
import { bundleTestWorker } from '../test/helpers/worker-bundle.js';
import { baseConfig, documents } from './corpus.js';
import { writeLatencyIndex } from './perf/latency.js';

const ORIGIN = 'http://docs.test';
const SIZES = [2_000, 10_000];
type Counts = { statements: number; rowsRead: number; direct: number };

interface Row {
  what: string;
  statements: number;
  rows: number;
  note?: string;
}

async function measure(pages: number): Promise<Row[]> {
  const mf = new Miniflare({ modules: true, script: await bundleTestWorker('assistants-entry.ts'), compatibilityDate: '2026-07-01', d1Databases: { SEARCH_DB: `assistants-${pages}` } });
  try {
    const d1 = (await mf.getD1Database('SEARCH_DB')) as unknown as SearchDatabase & { batch(s: unknown[]): Promise<unknown> };
    console.error(`[bench] assistants: generating ${pages} pages…`);
    const docs = await documents(pages);
    console.error(`[bench] assistants: pushing ${pages} pages into D1…`);
    const statements = pushStatements(baseConfig, docs);
    for (let i = 0; i < statements.length; i += 50) await d1.batch(statements.slice(i, i + 50).map((s) => d1.prepare(s)));
    const caches = (await mf.getCaches()) as unknown as { default: { match(key: string): Promise<Response | undefined> } };
    // Each body read to its end: a stream from workerd left open keeps Miniflare from stopping.
    const holds = async (key: string) => {
      const hit = await caches.default.match(key);
      await hit?.arrayBuffer();
      return hit !== undefined;
    };
    const cost = async (run: () => Promise<unknown>): Promise<Counts> => {
      await mf.dispatchFetch(`${ORIGIN}/__reset`);
      await run();
      return (await (await mf.dispatchFetch(`${ORIGIN}/__db-calls`)).json()) as Counts;
    };
    const kept = async (key: string) => {
      for (let i = 0; i < 200 && !(await holds(key)); i++) await new Promise((r) => setTimeout(r, 50));
    };
    let id = 0;
    const mcp = (calls: { name: string; arguments: Record<string, unknown> }[]) =>
      mf.dispatchFetch(`${ORIGIN}/mcp`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2025-03-26' },
        body: JSON.stringify(calls.length === 1 ? { jsonrpc: '2.0', id: ++id, method: 'tools/call', params: calls[0] } : calls.map((params) => ({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params }))),
      }).then((r) => r.text());
    const rows: Row[] = [];
    const row = (what: string, c: Counts, note?: string) => {
      console.error(`[bench] ${pages} pages: ${what}: ${c.statements} statements, ${c.rowsRead} rows`);
      rows.push({ what, statements: c.statements, rows: c.rowsRead, ...(note ? { note } : {}) });
    };

    for (const path of ['/llms.txt', '/llms-full.txt']) {
      let bytes = 0;
      let text = '';
      row(`GET ${path}`, await cost(async () => ((text = await (await mf.dispatchFetch(`${ORIGIN}${path}`)).text()), (bytes = new TextEncoder().encode(text).byteLength))), `${(bytes / 2 ** 20).toFixed(1)} MB${/\(This (file|list) stops at/.test(text) ? ', stops at its bound' : ''}`);
      await kept(`${ORIGIN}${path}`);
      row(`GET ${path} again (Cache API)`, await cost(() => mf.dispatchFetch(`${ORIGIN}${path}`).then((r) => r.text())));
    }
    // Before: llms-full.txt's statements, `LIMIT 200 OFFSET n`, on the same database (every request read them all).
    let offsetRows = 0;
    let offsetStatements = 0;
    for (let offset = 0; ; offset += 200) {
      const r = (await d1
        .prepare(`SELECT d.url, i.title, i.description, d.type, i.date, i.tags, i.content, s.sections FROM ${DOCS_TABLE} d JOIN ${TABLE} i ON i.rowid = d.id LEFT JOIN ${SECTIONS_TABLE} s ON s.page = d.id WHERE d.site = ? ORDER BY d.url LIMIT 200 OFFSET ?`)
        .bind('', offset)
        .all()) as { results: unknown[]; meta?: { rows_read?: number } };
      offsetStatements++;
      offsetRows += r.meta?.rows_read ?? 0;
      if (r.results.length < 200) break;
    }
    rows.push({ what: 'before: llms.txt or llms-full.txt on every request (`LIMIT 200 OFFSET n`, every page\'s text)', statements: offsetStatements, rows: offsetRows });

    const search = { name: 'search', arguments: { query: 'astro components layout', type: 'en' } };
    row('MCP search', await cost(() => mcp([search])));
    await new Promise((r) => setTimeout(r, 300));
    row('MCP search again (Cache API)', await cost(() => mcp([search])));
    const batch = ['image optimization', 'deploy vercel', 'server endpoints', 'middleware', 'routing', 'markdown', 'integrations', 'typescript', 'styles', 'view transitions'];
    row('MCP batch of 10 searches (one reads; 9 told to come alone)', await cost(() => mcp(batch.map((query) => ({ name: 'search', arguments: { query } })))));
    row('MCP get_page', await cost(() => mcp([{ name: 'get_page', arguments: { url: '/en/guides/actions' } }])));
    const urls = docs.map((d) => d.url).sort();
    row('MCP list_pages, first part', await cost(() => mcp([{ name: 'list_pages', arguments: {} }])));
    row('MCP list_pages, last part', await cost(() => mcp([{ name: 'list_pages', arguments: { cursor: urls[urls.length - 20]! } }])));
    row('MCP list_pages type=ja (a 250-row window)', await cost(() => mcp([{ name: 'list_pages', arguments: { type: 'ja', cursor: urls[Math.floor(urls.length / 2)]! } }])));
    const direct = (await cost(() => mcp([{ name: 'get_page', arguments: { url: '/en/guides/routing' } }]))).direct;
    if (direct !== 0) throw new Error(`[bench] ${direct} statements read the binding rather than a session`);
    return rows;
  } finally {
    console.error(`[bench] ${pages} pages: done, stopping workerd…`);
    await mf.dispose();
  }
}

/** CPU ms of writing llms-full.txt (and llms.txt) once on Node, node:sqlite, the 10,000-page latency index. */
async function writeCpu(): Promise<{ full: number; index: number; fullBytes: number }> {
  const { path } = await writeLatencyIndex(10_000);
  const time = async (route: string) => {
    const db = openSqlite(path, { threads: 0 });
    try {
      const handler = createLlmsHandler(baseConfig, { db, cache: false });
      const start = process.cpuUsage();
      const text = await (await handler(new Request(`http://bench${route}`))).text();
      const used = process.cpuUsage(start);
      return { ms: (used.user + used.system) / 1000, bytes: new TextEncoder().encode(text).byteLength };
    } finally {
      db.close();
    }
  };
  await time('/llms.txt'); // warm
  const index = await time('/llms.txt');
  const full = await time('/llms-full.txt');
  return { full: full.ms, index: index.ms, fullBytes: full.bytes };
}

const results = new Map<number, Row[]>();
for (const pages of SIZES) results.set(pages, await measure(pages));
console.error('[bench] assistants: CPU of writing the files on Node…');
const cpu = await writeCpu();
const lines = [
  `| request | ${SIZES.map((n) => `${n.toLocaleString('en')} pages: statements / rows read`).join(' | ')} | |`,
  `|---|${SIZES.map(() => '---').join('|')}|---|`,
  ...results.get(SIZES[0]!)!.map((r, i) => `| ${r.what} | ${SIZES.map((n) => `${results.get(n)![i]!.statements} / ${results.get(n)![i]!.rows.toLocaleString('en')}`).join(' | ')} | ${SIZES.map((n) => results.get(n)![i]!.note ?? '').filter(Boolean).join(' · ')} |`),
];
console.log(`${lines.join('\n')}\n\nWriting once on Node (node:sqlite, 10,000 pages, process CPU): llms.txt ${cpu.index.toFixed(0)} ms, llms-full.txt ${cpu.full.toFixed(0)} ms (${(cpu.fullBytes / 2 ** 20).toFixed(1)} MB).`);
