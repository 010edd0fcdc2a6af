/**
 * Load from a second process (autocannon, on loopback) against the real `site-search dev` server over the English
 * Astro docs, and against the Worker from createWorker in Miniflare (workerd, D1, caches.default): a mixed query set,
 * 50 connections, zero errors and the server's memory bounded (the Worker, at 10 and 50 connections: every answer a
 * 200, and only the rare connections workerd's local runtime drops, see below). This is the
 * short form CI runs; `LOAD_REQUESTS=20000` runs the long one. Latency figures are printed, and belong in
 * docs/benchmarks.md, not in assertions.
 */
import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadQueries } from '../../bench/labeled-queries.js';
import { CORPUS, QUERIES as QUERY_FILE } from '../helpers/corpus.js';
import { seed, siteDocs } from '../helpers/documents.js';
import { makeProject } from '../helpers/project.js';
import { bundleTestWorker } from '../helpers/worker-bundle.js';

const run = promisify(execFile);
const CLI = new URL('../../dist/cli.js', import.meta.url).pathname;
const AUTOCANNON = new URL('../../node_modules/.bin/autocannon', import.meta.url).pathname;
const REQUESTS = Number(process.env.LOAD_REQUESTS ?? 4000);
const QUERIES = loadQueries(QUERY_FILE)
  .filter((q) => q.lang === 'en')
  .map((q) => q.query)
  .concat(['astro', 'co', 'de', 'component', 'config', 'deploy', 'the', 'typscript', 'how do I add a sitemap']);

interface LoadResult {
  /** `sent` requests went out; `total` completed before autocannon stopped (a few may still be in flight). */
  requests: { total: number; sent: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  latency: { p50: number; p99: number };
  /** Failed requests by error code (ECONNRESET, …). */
  kinds: Record<string, number>;
}

/** autocannon in its own process, cycling through one request per query (each with a distinct parameter). */
async function load(base: string, path: string, extra: (i: number) => string, connections: number): Promise<LoadResult> {
  const project = makeProject({});
  const script = join(project.dir, 'load.cjs');
  const requests = QUERIES.map((q, i) => ({ method: 'GET', path: `${path}?q=${encodeURIComponent(q)}${extra(i)}` }));
  // A script file, because autocannon's CLI takes one URL; its API runs in the second process.
  const runner = `const autocannon = require(${JSON.stringify(join(AUTOCANNON, '../../autocannon'))});
const kinds = {};
const instance = autocannon({ url: ${JSON.stringify(base)}, connections: ${connections}, amount: ${REQUESTS}, requests: ${JSON.stringify(requests)} }, (err, r) => {
  if (err) throw err;
  console.log(JSON.stringify({ requests: r.requests, errors: r.errors, timeouts: r.timeouts, non2xx: r.non2xx, latency: r.latency, kinds }));
});
instance.on('reqError', (e) => { const kind = e.code || e.message; kinds[kind] = (kinds[kind] || 0) + 1; });`;
  project.write('load.cjs', runner);
  const { stdout } = await run(process.execPath, [script], { maxBuffer: 16 * 1024 * 1024 });
  project.cleanup();
  return JSON.parse(stdout.trim().split('\n').pop()!);
}

/** Resident memory of a process, in MB, from /proc. */
function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

describe('site-search dev under load', () => {
  let child: ReturnType<typeof spawn>;
  let base = '';
  const project = makeProject({});
  beforeAll(async () => {
    child = spawn(process.execPath, [CLI, 'dev', join(CORPUS, 'en'), '--port', '0', '--sqlite', join(project.dir, 'load.db')], {
      cwd: project.dir,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    base = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d) => {
        out += d;
        const m = /search page: (http:\/\/[\d.:]+)\//.exec(out);
        if (m) resolve(m[1]!);
      });
      child.on('exit', (code) => reject(new Error(`dev exited with ${code}: ${out}`)));
    });
  }, 120_000);
  afterAll(() => {
    child?.kill('SIGTERM');
    project.cleanup();
  });

  it(`answers ${REQUESTS} mixed requests at 50 connections with no error, memory bounded`, async () => {
    // Warm up (statement caches, JIT), then measure memory around the real run.
    await load(base, '/api/search', (i) => `&w=${i}`, 50);
    const before = rssOf(child.pid!);
    const result = await load(base, '/api/search', (i) => `&limit=${(i % 10) + 1}`, 50);
    const after = rssOf(child.pid!);
    console.log(`[load] dev: ${result.requests.total} requests, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, RSS ${before.toFixed(0)} → ${after.toFixed(0)} MB`);
    expect(result.requests.sent).toBeGreaterThanOrEqual(REQUESTS);
    expect(result.errors + result.timeouts + result.non2xx).toBe(0);
    expect(after - before).toBeLessThan(64);
  }, 240_000);
});

describe('createWorker in Miniflare under load', () => {
  const workers: Miniflare[] = [];
  /** A Worker in Miniflare with a local D1 holding the small test site; its base URL. */
  async function start(script: string): Promise<string> {
    const mf = new Miniflare({ modules: true, script, compatibilityDate: '2026-07-01', d1Databases: { SEARCH_DB: 'load-db' } });
    workers.push(mf);
    await seed((await mf.getD1Database('SEARCH_DB')) as never, siteDocs());
    return (await mf.ready).origin;
  }
  let base = '';
  beforeAll(async () => {
    base = await start(await bundleTestWorker());
  }, 60_000);
  afterAll(() => Promise.all(workers.map((mf) => mf.dispose())));

  const workerRequests = async () => (await (await fetch(`${base}/__requests`)).json()) as { started: number; finished: number };
  /** The Worker's request counts once the last answers are out (autocannon can stop with a few still in flight). */
  async function settledWorkerRequests() {
    let counts = await workerRequests();
    for (let i = 0; i < 50 && counts.finished < counts.started; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      counts = await workerRequests();
    }
    return counts;
  }
  const detail = (r: LoadResult) => JSON.stringify({ sent: r.requests.sent, errors: r.errors, timeouts: r.timeouts, non2xx: r.non2xx, kinds: r.kinds });

  /**
   * workerd's local runtime sometimes drops connections under load, several at once, as resets or as requests left
   * unanswered until autocannon's 10 s timeout. Measured, 4,000 requests per fresh Miniflare: at 50 connections, by
   * hand, a burst of 1 to 16 resets 5–9 s into about half of the runs; in CI runs, where the machine was slow, 48 and
   * 17 lost at 50 connections and 2 at 10; with both cores kept busy by another process, up to 70 lost at 50 (1.75%),
   * and up to 42 for a Worker of a few lines with no site-search code (one small D1 query, the Cache API). Counted
   * inside the Worker, the lost requests never reached it. So the Worker's own record decides: every answer is a 200,
   * nothing fails but dropped connections, those stay under 2.5%, every request the Worker began it finished (but
   * for one whose connection was dropped under it), and it answers correctly afterwards.
   */
  async function expectOnlyDroppedConnections(name: string, connections: number, extra: (i: number) => string) {
    const before = await workerRequests();
    const result = await load(base, '/api/search', extra, connections);
    const after = await settledWorkerRequests();
    const resets = result.kinds.ECONNRESET ?? 0;
    // autocannon counts a timeout among the errors too.
    const other = result.errors - resets - result.timeouts;
    console.log(`[load] ${name}: ${result.requests.total} requests, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${resets} connection resets, ${result.timeouts} timeouts, ${other + result.non2xx} other errors; ${after.started - before.started} requests reached the Worker, ${after.started - after.finished} of them unfinished`);
    expect(result.requests.sent, detail(result)).toBeGreaterThanOrEqual(REQUESTS);
    expect(result.non2xx, detail(result)).toBe(0);
    expect(other, detail(result)).toBe(0);
    expect(result.errors, detail(result)).toBeLessThan(REQUESTS / 40);
    expect(after.started - after.finished, detail(result)).toBeLessThanOrEqual(result.errors);
    const answer = await fetch(`${base}/api/search?q=collections&limit=3&after=load`);
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { results: { url: string }[] }).results[0]?.url).toMatch(/content-collections/);
  }

  it(`at 10 connections: every answer a 200, only rare dropped connections, then still answering`, async () => {
    await expectOnlyDroppedConnections('worker', 10, (i) => `&n=${i % 7}`);
  }, 240_000);

  it(`at 50 connections: every answer a 200, only rare dropped connections, then still answering`, async () => {
    // Limits and offsets vary so that many requests (about a third, by the D1 statements run) miss the cache.
    await expectOnlyDroppedConnections('worker at 50 connections', 50, (i) => `&limit=${(i % 23) + 1}&offset=${i % 3}`);
    if (REQUESTS < 20_000) return;
    // The long form also measures the control: the same load on a bare D1 Worker.
    const bare = await start(BARE_D1_WORKER);
    const control = await load(bare, '/', () => '', 50);
    console.log(`[load] control, a bare D1 Worker at 50 connections: ${control.requests.total} requests, p50 ${control.latency.p50} ms, p99 ${control.latency.p99} ms, ${control.kinds.ECONNRESET ?? 0} connection resets, ${control.timeouts} timeouts`);
  }, 240_000);
});

/** The control: one FTS5 query on D1 per word of `q` (about what a search costs), and no site-search code. */
const BARE_D1_WORKER = `export default {
  async fetch(request, env) {
    const q = new URL(request.url).searchParams.get('q') || '';
    const counts = [];
    for (const word of q.split(/[^\\p{L}\\p{N}]+/u).filter(Boolean)) {
      const { results } = await env.SEARCH_DB.prepare("SELECT title, snippet(search_index, 2, '<', '>', '…', 20) AS s FROM search_index WHERE search_index MATCH ? ORDER BY bm25(search_index) LIMIT 10")
        .bind('"' + word.replace(/"/g, '') + '"').all();
      counts.push(results.length);
    }
    return Response.json(counts);
  },
};`;
