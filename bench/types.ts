/**
 * `npm run bench:types [-- 10000]`: what a search costs on a site of 30 types beside the same pages in one type (issue
 * 52, item 3: "a query's cost does not grow with the number of types beyond the rows it matches"), in process CPU time.
 * The 10,000 generated documents (bench/corpus.ts) are indexed twice: each page's language split five ways (30 types:
 * `en-0` … `zh-cn-4`), and every page in one type. The mix's misspellings, completions and questions are asked without
 * a type, as a search box of the whole site asks them, with the vocabulary not in memory (cold: every search is the
 * first of its process, which reads and builds the vocabulary) and in memory (warm). Prints Markdown.
 */
import { openSqlite } from '../src/db/sqlite.js';
import { createSearchHandler, resolveConfig, type SearchOptions } from '../src/index.js';
import { writeIndex } from '../src/indexer/index.js';
import { OPTIMIZE_STATEMENTS } from '../src/db/write-plan.js';
import { forgetKnownIndexes } from '../src/search/known-index.js';
import { documents } from './corpus.js';
import { cpuTime, warnIfLoaded } from './perf/cpu.js';
import { cachedIndex } from './perf/index-cache.js';
import { MIX } from './perf/query-mix.js';

const n = Number(process.argv[2] ?? 10_000);
const ROUNDS = 7;
const QUERIES = MIX.filter((m) => m.kind === 'misspelling' || m.kind === 'completion' || m.kind === 'question').map((m) => m.q);

/** The options of a site whose pages' types are `typeOf` of them. */
function siteOptions(types: string[]): SearchOptions {
  return { database: 'bench', sources: types.map((type) => ({ dir: type, type, url: `/${type}/:slug` })) };
}

/** The index of the `n` documents, each typed by `retype`, built once and kept (bench/perf/index-cache.ts). */
async function indexOf(name: string, retype: (type: string, i: number) => string): Promise<{ path: string; types: string[] }> {
  const docs = (await documents(n)).map((d, i) => ({ ...d, type: retype(d.type, i) }));
  const types = [...new Set(docs.map((d) => d.type))].sort();
  const { path } = await cachedIndex(n, async (into) => {
    const writer = openSqlite(into, { create: true });
    await writer.transaction(() => writeIndex(writer, resolveConfig(siteOptions(types)), docs));
    for (const sql of OPTIMIZE_STATEMENTS) writer.exec(sql);
    writer.close();
  }, name);
  return { path, types };
}

/** Each query's CPU ms, median over rounds, cold (a new process each time) or warm. */
async function timings(path: string, types: string[], cold: boolean): Promise<number[]> {
  const db = openSqlite(path, { threads: 0 });
  const handler = createSearchHandler(siteOptions(types), { db, cache: false });
  const ask = (q: string) => handler(new Request(`http://bench/api/search?q=${encodeURIComponent(q)}`)).then((r) => r.text());
  await ask('astro');
  const rounds: number[][] = QUERIES.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, q] of QUERIES.entries()) {
      if (cold) forgetKnownIndexes();
      rounds[i]!.push(await cpuTime(() => ask(q)));
    }
  }
  db.close();
  forgetKnownIndexes();
  return rounds.map((r) => r.sort((a, b) => a - b)[Math.floor(r.length / 2)]!);
}

warnIfLoaded('the start of the run');
const many = await indexOf('types-30', (type, i) => `${type}-${i % 5}`);
const one = await indexOf('types-1', () => 'all');
console.log(`### The cost of a site's types (${n.toLocaleString('en')} documents, ${many.types.length} types against 1)\n`);
console.log('| vocabulary | costliest question, 30 types | the same, 1 type | ratio | highest ratio of any question | median ratio |');
console.log('|---|---|---|---|---|---|');
for (const cold of [true, false]) {
  const [a, b] = [await timings(many.path, many.types, cold), await timings(one.path, one.types, cold)];
  const ratios = a.map((x, i) => x / b[i]!);
  const costliest = a.indexOf(Math.max(...a));
  const sorted = [...ratios].sort((x, y) => x - y);
  const worst = ratios.indexOf(sorted.at(-1)!);
  console.log(
    `| ${cold ? 'not in memory (cold)' : 'in memory (warm)'} | \`${QUERIES[costliest]}\` ${a[costliest]!.toFixed(2)} ms | ${b[costliest]!.toFixed(2)} ms | **${ratios[costliest]!.toFixed(2)}×** | ${sorted.at(-1)!.toFixed(2)}× (\`${QUERIES[worst]}\`) | ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)}× |`,
  );
}
warnIfLoaded('the end of the run');
