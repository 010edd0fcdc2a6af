/**
 * Performance benchmark: site-search and its peers in one run, on the same records. Part of `npm run bench`, which
 * writes docs/benchmarks.md; `npm run bench:perf` prints the figures only. One module per measurement in bench/perf/:
 * query latency, indexing, the first answer of a fresh process, bundle sizes, D1 under Miniflare.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { documents } from './corpus.js';
import { reindexAfterEdit, type Reindex } from './incremental.js';
import { bundles } from './perf/bundles.js';
import { d1 } from './perf/d1.js';
import { firstAnswer } from './perf/first-answer.js';
import { BUILD_ROUNDS, indexing, type IndexingRow } from './perf/indexing.js';
import { type FloorReport } from './perf/answered-floor.js';
import { load } from './perf/cpu.js';
import { latency } from './perf/latency.js';
import { here, QUERY_MIX, ROUNDS, type Measured } from './perf/measure.js';
import { prefixIndexes, type PrefixRow } from './perf/prefix.js';
import { worstCase, type WorstCase } from './worst-case.js';

export { d1 } from './perf/d1.js';
export { type IndexingRow } from './perf/indexing.js';
export { type PrefixRow } from './perf/prefix.js';
export { type FloorReport } from './perf/answered-floor.js';
export { ANSWERED_FLOOR_ROW, AFTER_JS_ROW, FETCH_FLOOR_ROW, FLOOR_ROW, HANDLER_ROW, IN_SITU_JS_ROW, JS_ONLY_ROW, SAME_SQL_ROW, SPEC_ONLY_ROW, SPEC_ONLY_SQL_ROW } from './perf/latency.js';
export { MINISEARCH_FIRST_ROW, SQLITE_FIRST_ROW } from './perf/first-answer.js';
export { QUERY_MIX, type Measured, type Spread } from './perf/measure.js';

/** Everything one run measures, by corpus size where it depends on it (sizes as keys). */
export interface PerfResult {
  queries: number;
  rounds: number;
  buildRounds: number;
  /** Per size: each row of the latency table (handler, same SQL, floors, peers…). */
  latency: Record<string, Record<string, Measured>>;
  /** Per size: where the handler's SQL time goes, by statement kind. */
  sqlBreakdown: Record<string, Record<string, number>>;
  /** Per size: the handler against the answered floor, query by query (issue 36). */
  floor: Record<string, FloorReport>;
  /** The highest 1-minute load average seen while timing, and the machine's cores. */
  load?: { highest: number; cores: number };
  /** Per size: the slowest query of the FTS5 floor. */
  slowestFloor: Record<string, Record<'floor', { query: string; ms: number; matches: number; documents: number }>>;
  /** Per size: index bytes and each engine's build. */
  indexing: Record<string, { bytes: number; rows: Record<string, IndexingRow> }>;
  /** Milliseconds to the first answer of a fresh process, per engine (10,000 documents). */
  firstAnswer?: Record<string, number>;
  bundles: Record<string, { min: number; gzip: number }>;
  worstCase: Record<string, WorstCase>;
  /** Per size (10,000 and up): the FTS5 table without a prefix index, with the old one and with today's. */
  prefix: Record<string, PrefixRow[]>;
  reindex: Record<string, Reindex>;
  d1: Awaited<ReturnType<typeof d1>>;
}

const work = join(here, 'results', 'perf');

export async function runPerf({ sizes = [1831, 10_000, 100_000] }: { sizes?: number[] } = {}): Promise<PerfResult> {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const result: PerfResult = {
    queries: QUERY_MIX.length,
    rounds: ROUNDS,
    buildRounds: BUILD_ROUNDS,
    latency: {},
    sqlBreakdown: {},
    floor: {},
    slowestFloor: {},
    indexing: {},
    bundles: {},
    worstCase: {},
    prefix: {},
    reindex: {},
    d1: undefined!,
  };
  let serialized: { mini: string; orama: string; flex: string } | undefined;
  let sqlite10k = '';
  for (const n of sizes) {
    const peers = n <= 10_000;
    console.error(`[bench] indexing ${n} files…`);
    const ix = await indexing(n, peers ? 'all' : 'pagefind');
    result.indexing[n] = { bytes: ix.bytes, rows: ix.rows };
    if (n === 10_000) [serialized, sqlite10k] = [ix.serialized!, ix.sqlite!];
    if (n !== 10_000) {
      console.error(`[bench] re-index after a one-page edit at ${n} files…`);
      result.reindex[n] = reindexAfterEdit(join(work, `files-${n}`), join(work, `reindex-${n}.db`));
    }
    console.error(`[bench] query latency at ${n} documents…`);
    const { path, rows, floor, breakdown, slowest } = await latency(n, peers);
    result.latency[n] = rows;
    result.floor[n] = floor;
    result.sqlBreakdown[n] = breakdown;
    if (slowest) result.slowestFloor[n] = slowest;
    console.error(`[bench] worst case (one-letter last words) at ${n} documents…`);
    result.worstCase[n] = await worstCase(path);
    if (n >= 10_000) {
      console.error(`[bench] prefix indexes at ${n} documents…`);
      result.prefix[n] = prefixIndexes(path, n);
    }
  }
  if (serialized) result.firstAnswer = firstAnswer(sqlite10k, serialized);
  console.error('[bench] bundle sizes…');
  result.bundles = await bundles();
  console.error('[bench] D1 under Miniflare…');
  result.d1 = await d1(await documents(1831));
  result.load = { ...load };
  writeFileSync(join(here, 'results', 'perf.json'), JSON.stringify(result, null, 2));
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = process.argv.slice(2).map(Number).filter(Boolean);
  console.log(JSON.stringify(await runPerf(sizes.length ? { sizes } : {}), null, 2));
}
