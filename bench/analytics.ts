/**
 * Analytics benchmark (`npm run bench:analytics`): what recording costs a search, and what it writes on D1.
 *
 * 1. Handler CPU time (process.cpuUsage) per search of the bench's query mix over the astro-docs corpus on node:sqlite,
 *    analytics off and on, interleaved in the same run; "on" includes its background work (the waitUntil promises are
 *    awaited inside the measured span), with the default flush policy.
 * 2. D1 batches, rows written and rows read per 1,000 searches of the mix (Miniflare's D1 `meta.rows_written`,
 *    `meta.rows_read`), through the recorder's flush policy at four traffic rates, with `flushSeconds` 10 (before) and
 *    300 (the default), on a modeled clock; and the same on a day the repeat attack filled first (1,000 junk queries of
 *    3 searches each: every flush then chooses what to evict and keeps the candidates).
 */
import { Miniflare } from 'miniflare';
import { openSqlite } from '../src/db/sqlite.js';
import { createSearchHandler, resolveConfig, type SearchDatabase } from '../src/index.js';
import { writeIndex } from '../src/indexer/index.js';
import { AnalyticsRecorder } from '../src/analytics/recorder.js';
import { ANALYTICS_SCHEMA, QUERIES_TABLE } from '../src/analytics/sql-store.js';
import { storedQuery } from '../src/analytics/query-text.js';
import { countBatches } from '../test/helpers/observe.js';
import { baseDocuments, baseConfig } from './corpus.js';
import { corpusOptions } from './labeled-queries.js';
import { percentiles, QUERY_MIX, shuffled } from './perf/measure.js';

const ROUNDS = 7;
const cpuMs = (start: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};

async function handlerCost() {
  const db = openSqlite(':memory:');
  await writeIndex(db, baseConfig, await baseDocuments());
  const options = { ...corpusOptions(), origin: 'https://docs.example.com' };
  const pending: Promise<unknown>[] = [];
  const ctx = { waitUntil: (p: Promise<unknown>) => void pending.push(p) };
  const handlers = {
    off: createSearchHandler(options, { db, cache: false }),
    on: createSearchHandler({ ...options, analytics: true }, { db, cache: false, analytics: openSqlite(':memory:') }),
  };
  const samples: Record<string, number[]> = { off: [], on: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, [q, lang]] of QUERY_MIX.entries()) {
      for (const name of shuffled(['off', 'on'] as const, round * QUERY_MIX.length + i)) {
        const request = new Request(`https://docs.example.com/api/search?q=${encodeURIComponent(q)}&type=${lang}`);
        const start = process.cpuUsage();
        await (await handlers[name](request, {}, ctx)).arrayBuffer();
        while (pending.length) await pending.shift();
        if (round > 0) samples[name]!.push(cpuMs(start));
      }
    }
  }
  return { off: percentiles(samples.off!), on: percentiles(samples.on!) };
}

/** Searches a second reaching one isolate: one every 10 s, then 1, 10 and 100 a second. */
const RATES = [0.1, 1, 10, 100];

/**
 * D1 batches, rows written and rows read per 1,000 searches of the mix, through the real recorder and its flush policy
 * at each traffic rate and `flushSeconds`. Time is modeled (the recorder's injected clock advances by the gap between
 * searches), so an hour of traffic takes no real time; the last counts still waiting are flushed and counted too.
 */
async function d1RowsWritten() {
  const rows: Record<string, { batches: number; written: number; read: number }> = {};
  for (const full of [false, true]) for (const flushSeconds of [10, 300]) {
    for (const rate of RATES) {
      const mf = new Miniflare({ modules: true, script: 'export default { fetch() { return new Response("") } }', d1Databases: { DB: 'analytics-bench' } });
      try {
        const d1 = (await mf.getD1Database('DB')) as unknown as SearchDatabase;
        // The tables as an earlier flush left them: what is counted is a Worker's later flushes.
        for (const create of ANALYTICS_SCHEMA) await d1.prepare(create).run();
        if (full) {
          const junk = JSON.stringify(Array.from({ length: 1000 }, (_, i) => `zq${i}x junk`));
          await d1
            .prepare(`INSERT INTO ${QUERIES_TABLE} (day, site, source, type, query, searches, zero, results, match, suggestion) SELECT '2026-11-26', '', 'endpoint', '', value, 3, 0, 1, 'all', '' FROM json_each(?)`)
            .bind(junk)
            .run();
        }
        const analytics = resolveConfig({ ...corpusOptions(), analytics: { flushSeconds } }).analytics;
        if (!analytics) throw new Error('analytics resolved off');
        let now = Date.parse('2026-11-26T00:00:00Z');
        const recorder = new AnalyticsRecorder(analytics, () => now);
        const counted = countBatches(d1);
        const pending: Promise<unknown>[] = [];
        const ctx = { waitUntil: (p: Promise<unknown>) => void pending.push(p) };
        for (let i = 1; i <= 1000; i++, now += 1000 / rate) {
          const [q, lang] = QUERY_MIX[i % QUERY_MIX.length]!;
          recorder.search({ day: recorder.today(), site: '', source: 'endpoint', type: lang, query: storedQuery(q, 100), results: 8, match: 'all', suggestion: '' }, { db: counted.db }, ctx);
          while (pending.length) await pending.shift();
        }
        await recorder.flush(counted.db);
        rows[`${full ? 'day full: ' : ''}${rate} searches/s, flushSeconds ${flushSeconds}`] = { batches: counted.batches, written: counted.written, read: counted.read };
      } finally {
        await mf.dispose();
      }
    }
  }
  return rows;
}

const d1Only = process.argv.includes('--d1-only');
const cost = d1Only ? undefined : await handlerCost();
if (cost) {
  const ratio = (k: 'p50' | 'p99') => ((cost.on[k] / cost.off[k] - 1) * 100).toFixed(1);
  console.log(`handler CPU ms per search (${QUERY_MIX.length} queries × ${ROUNDS - 1} rounds, node:sqlite, astro-docs):`);
  console.log(`  off p50 ${cost.off.p50.toFixed(3)} p99 ${cost.off.p99.toFixed(3)}`);
  console.log(`  on  p50 ${cost.on.p50.toFixed(3)} p99 ${cost.on.p99.toFixed(3)}  (p50 ${ratio('p50')}%, p99 ${ratio('p99')}%)`);
}
console.log('D1 batches, rows written and rows read per 1,000 searches of the mix:');
console.table(await d1RowsWritten());
