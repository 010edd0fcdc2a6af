/**
 * Analytics benchmark (`npm run bench:analytics`): what recording costs a search, and what it writes on D1.
 *
 * 1. Handler CPU time (process.cpuUsage) per search of the bench's query mix over the astro-docs corpus on node:sqlite,
 *    analytics off and on, interleaved in the same run; "on" includes its background work (the waitUntil promises are
 *    awaited inside the measured span), with the default flush every 10 s.
 * 2. D1 rows written (and read) per 1,000 searches of the mix (Miniflare's D1 `meta.rows_written`), at three traffic rates: the
 *    flush window (10 s) then holds 10, 100 or 1,000 searches.
 */
import { Miniflare } from 'miniflare';
import { openSqlite } from '../src/db/sqlite.js';
import { createSearchHandler, resolveConfig, type SearchDatabase } from '../src/index.js';
import { writeIndex } from '../src/indexer/index.js';
import { Aggregator } from '../src/analytics/aggregate.js';
import { SqlAnalyticsStore } from '../src/analytics/sql-store.js';
import { storedQuery } from '../src/analytics/query-text.js';
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

async function d1RowsWritten() {
  const rows: Record<string, { written: number; read: number }> = {};
  for (const perFlush of [10, 100, 1000]) {
    const mf = new Miniflare({ modules: true, script: 'export default { fetch() { return new Response("") } }', d1Databases: { DB: 'analytics-bench' } });
    try {
      const d1 = (await mf.getD1Database('DB')) as unknown as SearchDatabase;
      const analytics = resolveConfig({ ...corpusOptions(), analytics: true }).analytics;
      if (!analytics) throw new Error('analytics resolved off');
      let written = 0;
      let read = 0;
      const store = new SqlAnalyticsStore(observeWrites(d1, (w, r) => ((written += w), (read += r))), { cap: analytics.dailyQueryCap, retentionDays: analytics.retentionDays });
      const day = new Date().toISOString().slice(0, 10);
      // The first flush creates the tables: measured after it, as a Worker's later flushes are.
      await store.write({ searches: [], clicks: [] }, day);
      written = read = 0;
      let pending = new Aggregator(analytics.dailyQueryCap);
      for (let i = 1; i <= 1000; i++) {
        const [q, lang] = QUERY_MIX[i % QUERY_MIX.length]!;
        pending.addSearch({ day, site: '', type: lang, query: storedQuery(q), results: 8, match: 'all', suggestion: '' });
        if (i % perFlush === 0) {
          await store.write(pending.take(), day);
          pending = new Aggregator(analytics.dailyQueryCap);
        }
      }
      rows[`${perFlush} searches per flush`] = { written, read };
    } finally {
      await mf.dispose();
    }
  }
  return rows;
}

/** Sums D1's own counts of rows written and read over every batch. */
function observeWrites(db: SearchDatabase, add: (written: number, read: number) => void): SearchDatabase {
  return {
    prepare: (sql) => db.prepare(sql),
    batch: async (statements) => {
      const results = (await db.batch!(statements)) as { meta?: { rows_written?: number; rows_read?: number } }[];
      for (const r of results) add(r.meta?.rows_written ?? 0, r.meta?.rows_read ?? 0);
      return results;
    },
  };
}

const d1Only = process.argv.includes('--d1-only');
const cost = d1Only ? undefined : await handlerCost();
if (cost) {
  const ratio = (k: 'p50' | 'p99') => ((cost.on[k] / cost.off[k] - 1) * 100).toFixed(1);
  console.log(`handler CPU ms per search (${QUERY_MIX.length} queries × ${ROUNDS - 1} rounds, node:sqlite, astro-docs):`);
  console.log(`  off p50 ${cost.off.p50.toFixed(3)} p99 ${cost.off.p99.toFixed(3)}`);
  console.log(`  on  p50 ${cost.on.p50.toFixed(3)} p99 ${cost.on.p99.toFixed(3)}  (p50 ${ratio('p50')}%, p99 ${ratio('p99')}%)`);
}
console.log('D1 rows written and read per 1,000 searches of the mix:', JSON.stringify(await d1RowsWritten()));
