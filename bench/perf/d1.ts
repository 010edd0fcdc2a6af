/** D1 under Miniflare: round trips and rows read per query class, and the Worker's cache path. */
import { join } from 'node:path';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { createSearchHandler, type SearchDatabase } from '../../src/index.js';
import { pushStatements, type IndexDocument } from '../../src/indexer/index.js';
import { baseConfig } from '../corpus.js';
import { corpusOptions, LABELED_SETS, LONG_QUESTION_LIMIT, setQueries } from '../labeled-queries.js';
import { QUERY_MIX, here, percentiles } from './measure.js';

/**
 * Which steps a search took, from the steps its results came from: the loosest one names it. A search that went on to
 * its corrected statement and found its results there as every word is a completion (the last word typed partway):
 * it takes a correction's path, and is counted with them.
 */
export function queryClass(steps: (string | undefined)[], corrected: boolean): string {
  if (steps.length === 0) return 'no result';
  if (steps.includes('typo') || (corrected && !steps.includes('any'))) return 'typo correction or completion';
  if (steps.includes('any')) return 'any term (widened)';
  return 'every term (strict)';
}

/** Astro's labeled long questions (test/fixtures/astro-docs-long-queries.tsv), on the same 1,831 pages. */
const ASTRO = LABELED_SETS.find((set) => set.name === 'astro')!;
const LONG_QUESTIONS = ASTRO.long ? setQueries(ASTRO, ASTRO.long) : [];

/** D1 under Miniflare: rows read per query (what D1 bills) for the mix, and the Worker's cache-hit path. */
/** The query's type filter: `BENCH_NO_TYPE=1` asks every query without one (each type then judged apart, issue 44). */
const typed = (lang: string) => (process.env.BENCH_NO_TYPE ? '' : `&type=${lang}`);

export async function d1(docs: IndexDocument[]) {
  // createWorker exactly as a user exports it, with the benchmark's options (one type per language).
  const worker = await build({
    stdin: { contents: `import { createWorker } from './adapters/workers.ts';\nexport default createWorker(${JSON.stringify(corpusOptions())});`, resolveDir: join(here, '..'), loader: 'ts' },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    write: false,
    logLevel: 'silent',
  });
  const mf = new Miniflare({ modules: true, script: worker.outputFiles[0]!.text, compatibilityDate: '2026-07-01', d1Databases: { SEARCH_DB: 'bench-d1' } });
  try {
    const d1 = (await mf.getD1Database('SEARCH_DB')) as unknown as SearchDatabase & { batch(s: unknown[]): Promise<unknown> };
    const statements = pushStatements(baseConfig, docs);
    for (let i = 0; i < statements.length; i += 50) await d1.batch(statements.slice(i, i + 50).map((s) => d1.prepare(s)));
    let rowsRead = 0;
    // Each statement the handler sends to D1 is one round trip from the Worker to the database.
    let trips = 0;
    // Whether the search counted the pages holding its words as typed: it had a word to correct or complete.
    let corrected = false;
    const wrap = (st: ReturnType<SearchDatabase['prepare']>, sql: string): ReturnType<SearchDatabase['prepare']> => ({
      bind: (...v) => wrap(st.bind(...v), sql),
      all: async () => {
        trips++;
        corrected ||= /'count' AS kind/.test(sql);
        const r = (await st.all()) as { results: never[]; meta?: { rows_read?: number } };
        rowsRead += r.meta?.rows_read ?? 0;
        return r;
      },
      run: () => (trips++, st.run()),
    });
    // A D1 binding as the handler sees one (it has withSession, so the search takes D1's plan), whose session reads
    // the plain binding: in Miniflare a session adds milliseconds of its own to each statement, which a replica near the
    // Worker does not, and the design before was timed through the plain binding too.
    const binding = d1 as unknown as SearchDatabase;
    const counting: SearchDatabase & { withSession(constraint: string): SearchDatabase } = {
      prepare: (sql) => wrap(binding.prepare(sql), sql),
      withSession: () => counting,
    };
    const handler = createSearchHandler(baseConfig, { db: counting, cache: false });
    const perQuery: number[] = [];
    const classes = new Map<string, { trips: number[]; rowsRead: number[]; ms: number[] }>();
    for (const [q, lang] of QUERY_MIX) {
      rowsRead = 0;
      trips = 0;
      corrected = false;
      const started = performance.now();
      const body = (await (await handler(new Request(`http://bench/api/search?q=${encodeURIComponent(q)}${typed(lang)}`))).json()) as { results: { match?: string }[] };
      const ms = performance.now() - started;
      perQuery.push(rowsRead);
      const name = queryClass(body.results.map((r) => r.match), corrected);
      const c = classes.get(name) ?? { trips: [], rowsRead: [], ms: [] };
      classes.set(name, c);
      c.trips.push(trips);
      c.rowsRead.push(rowsRead);
      c.ms.push(ms);
    }
    // The same searches asking for the type and tag counts (issue 37's facets): what they add to the bill.
    const faceted = { rowsRead: [] as number[], maxTrips: 0 };
    for (const [q, lang] of QUERY_MIX) {
      rowsRead = 0;
      trips = 0;
      await (await handler(new Request(`http://bench/api/search?q=${encodeURIComponent(q)}${typed(lang)}&facets=type,tags`))).text();
      faceted.rowsRead.push(rowsRead);
      faceted.maxTrips = Math.max(faceted.maxTrips, trips);
    }
    // The Worker (createWorker with caches.default): a first request, then the same one served from the cache.
    const miss: number[] = [];
    const hit: number[] = [];
    for (const [i, [q, lang]] of QUERY_MIX.slice(0, 40).entries()) {
      const url = `http://bench.test/api/search?q=${encodeURIComponent(q)}${typed(lang)}&n=${i}`;
      let t = performance.now();
      await (await mf.dispatchFetch(url)).text();
      miss.push(performance.now() - t);
      for (let tries = 0; tries < 20; tries++) {
        t = performance.now();
        const res = await mf.dispatchFetch(url);
        await res.text();
        if (res.headers.get('X-Search-Cache') === 'HIT') {
          hit.push(performance.now() - t);
          break;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    // Long questions (issue 53) as MCP's search asks them: the same handler code with MCP's bound on a question's length.
    const longHandler = createSearchHandler({ ...corpusOptions(), maxQueryLength: LONG_QUESTION_LIMIT }, { db: counting, cache: false });
    const long = { rowsRead: [] as number[], maxTrips: 0 };
    for (const q of LONG_QUESTIONS) {
      rowsRead = 0;
      trips = 0;
      await (await longHandler(new Request(`http://bench/api/search?q=${encodeURIComponent(q.query)}${typed(q.lang)}`))).text();
      long.rowsRead.push(rowsRead);
      long.maxTrips = Math.max(long.maxTrips, trips);
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const network = [...classes].map(([name, c]) => ({ name, queries: c.trips.length, trips: mean(c.trips), maxTrips: Math.max(...c.trips), rowsRead: mean(c.rowsRead), p50ms: percentiles(c.ms).p50 }));
    const facets = { meanRowsRead: mean(faceted.rowsRead), maxTrips: faceted.maxTrips };
    const longQuestions = { queries: long.rowsRead.length, meanRowsRead: long.rowsRead.length ? mean(long.rowsRead) : 0, p99RowsRead: long.rowsRead.length ? percentiles(long.rowsRead).p99 : 0, maxTrips: long.maxTrips };
    return { rowsRead: percentiles(perQuery), meanRowsRead: mean(perQuery), facets, longQuestions, miss: percentiles(miss), hit: percentiles(hit), network };
  } finally {
    await mf.dispose();
  }
}
