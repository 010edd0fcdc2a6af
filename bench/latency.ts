/**
 * `npm run bench:latency -- 10000 100000`: the query latency tables alone, in process CPU time, with the handler
 * against its floor query by query (issue 36), at each size given (default 10,000 and 100,000). Prints Markdown;
 * writes bench/results/latency.json. Indexes are kept between runs (bench/perf/index-cache.ts), so a second run only
 * searches. The peers are timed at 10,000 documents and below, as in `npm run bench`. Only the rows the criterion
 * needs (handler, answered floor, same SQL, bare floor, facets) and the peers: `BENCH_ALL_ROWS=1` times every row of
 * `npm run bench`'s tables too, `BENCH_NO_PEERS=1` leaves the peers out.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { floorSection } from './latency-section.js';
import type { FloorReport } from './perf/answered-floor.js';
import { load, warnIfLoaded } from './perf/cpu.js';
import { latency } from './perf/latency.js';
import { here, type Measured, type Spread } from './perf/measure.js';

const sizes = process.argv.slice(2).map(Number).filter(Boolean);
const started = process.hrtime.bigint();
const floor: Record<string, FloorReport> = {};
const tables: Record<string, Record<string, Measured>> = {};
for (const n of sizes.length ? sizes : [10_000, 100_000]) {
  warnIfLoaded(`the start of the ${n}-document run`);
  console.error(`[bench] query latency at ${n} documents…`);
  const result = await latency(n, n <= 10_000 && !process.env.BENCH_NO_PEERS, { focus: !process.env.BENCH_ALL_ROWS });
  floor[n] = result.floor;
  tables[n] = result.rows;
}
mkdirSync(join(here, 'results'), { recursive: true });
writeFileSync(join(here, 'results', 'latency.json'), JSON.stringify({ floor, tables, load }, null, 2));

const ms = (m: Spread) => (m.min === m.max ? m.median.toFixed(2) : `${m.median.toFixed(2)} (${m.min.toFixed(2)}–${m.max.toFixed(2)})`);
console.log(floorSection(floor, load));
for (const [n, rows] of Object.entries(tables)) {
  console.log(`\n### ${Number(n).toLocaleString('en')} documents, every row (process CPU ms, median of rounds with min–max)\n`);
  console.log('| | p50 | p95 | p99 |\n|---|---|---|---|');
  for (const [name, m] of Object.entries(rows)) console.log(`| ${name} | ${ms(m.p50)} | ${ms(m.p95)} | ${ms(m.p99)} |`);
}
console.error(`[bench] done in ${(Number(process.hrtime.bigint() - started) / 1e9).toFixed(0)} s (wall); figures in bench/results/latency.json`);
