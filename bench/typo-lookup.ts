/**
 * The judgement of a query's words in memory (src/search/site-vocabulary.ts), in process CPU time, over the vocabulary
 * of 10,000 and 100,000 generated documents (bench/corpus.ts): what building it from the packed rows costs a cold
 * process or isolate, and what judging the misspellings of the tests and benchmark (bench/misspellings.ts) costs, in
 * one type and in every type at once (the search of a query without a type). The same pages again as 30 types, to show
 * that judging every type costs about what judging one does.
 *
 *   npm run bench:typo [-- 10000 100000]
 *
 * Only the vocabulary is written (into `search_vocab`, then packed by the push's own SQL): the judgement reads nothing
 * else, and building the 100,000-page index itself would take minutes.
 */
import { openSqlite } from '../src/db/sqlite.js';
import { ensureSchema, packVocabularyStatements, PACKED_VOCAB_QUERY } from '../src/db/schema.js';
import { insertWords, WORDS_PER_STATEMENT } from '../src/db/write-plan.js';
import { vocabularyOf } from '../src/indexer/vocabulary.js';
import { SiteVocabulary, type PackedVocabularyRow } from '../src/search/site-vocabulary.js';
import { documents } from './corpus.js';
import { MISSPELLINGS } from './misspellings.js';

/** CPU milliseconds `fn` takes per call: the median of 5 batches of `times` calls, after one call untimed. */
function cpuMs(times: number, fn: () => unknown): number {
  fn();
  const batches: number[] = [];
  for (let b = 0; b < 5; b++) {
    const start = process.cpuUsage();
    for (let i = 0; i < times; i++) fn();
    const used = process.cpuUsage(start);
    batches.push((used.user + used.system) / 1000 / times);
  }
  return batches.sort((x, y) => x - y)[2]!;
}

/** The packed rows of the vocabulary of `n` generated documents, their type renamed by `retype`. */
async function packedRows(n: number, retype: (type: string, i: number) => string): Promise<PackedVocabularyRow[]> {
  const docs = (await documents(n)).map((d, i) => ({ ...d, type: retype(d.type, i) }));
  const db = openSqlite(':memory:', { create: true, threads: 0 });
  await ensureSchema(db);
  const words = vocabularyOf(docs);
  for (let i = 0; i < words.length; i += WORDS_PER_STATEMENT) {
    const chunk = words.slice(i, i + WORDS_PER_STATEMENT);
    await db.prepare(insertWords(chunk.length)).bind(...chunk.flatMap((w) => [w.term, '', w.type])).run();
  }
  for (const sql of packVocabularyStatements('')) await db.prepare(sql).run();
  const { results } = await db.prepare(PACKED_VOCAB_QUERY).all<PackedVocabularyRow>();
  db.close();
  return results;
}

const sizes = process.argv.slice(2).map(Number).filter(Boolean);
console.log('| documents | types | packed rows (MB) | words | build ms | judge a word, one type (median / max ms) | every type (median / max ms) |');
console.log('|---|---|---|---|---|---|---|');
for (const n of sizes.length ? sizes : [10_000, 100_000]) {
  for (const [label, retype] of [['6 languages', (type: string) => type], ['30', (type: string, i: number) => `${type}-${i % 5}`]] as const) {
    const rows = await packedRows(n, retype);
    const bytes = rows.reduce((sum, r) => sum + r.words.length + r.types.length, 0);
    const build = cpuMs(1, () => new SiteVocabulary(rows));
    const vocabulary = new SiteVocabulary(rows);
    const types = JSON.parse(rows[0]!.types) as string[];
    const one = MISSPELLINGS.map((word) => cpuMs(20, () => vocabulary.judge(word, '', [types[0]!]))).sort((a, b) => a - b);
    const every = MISSPELLINGS.map((word) => cpuMs(20, () => vocabulary.judge(word, '', types))).sort((a, b) => a - b);
    const at = (list: number[], p: number) => list[Math.min(list.length - 1, Math.floor(p * list.length))]!.toFixed(3);
    console.log(
      `| ${n.toLocaleString('en')} | ${types.length} (${label}) | ${rows.length} (${(bytes / 1e6).toFixed(2)}) | ${vocabulary.size.toLocaleString('en')} | ${build.toFixed(1)} | ${at(one, 0.5)} / ${at(one, 1)} | ${at(every, 0.5)} / ${at(every, 1)} |`,
    );
  }
}
