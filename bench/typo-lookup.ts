/**
 * Typo candidate lookups (issue 36, item 1), in process CPU time: the SQL lookup over `search_vocab` the search
 * statement made, the in-memory trigram index (src/search/typo-index.ts) that replaces it, and a symmetric-delete
 * index for comparison, over the vocabulary of 10,000 and 100,000 generated documents (bench/corpus.ts) and the
 * misspellings of the tests and benchmark (bench/misspellings.ts). Also: the packed rows a cold process reads, and
 * what building the index from them costs.
 *
 *   npm run bench:typo [-- 10000 100000]
 *
 * Only the vocabulary is written (into `search_vocab`, then packed by the push's own SQL): the lookups read nothing
 * else, and building the 100,000-page index itself would take minutes.
 */
import { openSqlite } from '../src/db/sqlite.js';
import { ensureSchema, packVocabularyStatements, PACKED_VOCAB_QUERY } from '../src/db/schema.js';
import { insertWords, WORDS_PER_STATEMENT } from '../src/db/write-plan.js';
import { vocabularyOf } from '../src/indexer/vocabulary.js';
import { unpackVocabulary, type PackedVocabularyRow } from '../src/search/packed-vocabulary.js';
import { TypoIndex, type TypoScope } from '../src/search/typo-index.js';
import { correctionLookups, maxEdits, type CorrectionLookup } from '../src/search/typos.js';
import { foldWord } from '../src/text/fold.js';
import { sqlTypoLookup } from '../test/helpers/sql-typo-lookup.js';
import { documents } from './corpus.js';
import { MISSPELLINGS } from './misspellings.js';

/**
 * CPU milliseconds (user + system) `fn` takes per call: the median of 5 batches of `times` calls, after one call
 * untimed. On a shared machine (load 11-19 on 2 cores while this was written) one batch now and then takes twice the
 * others for the same work: a collection of the corpus's garbage, or the core's caches taken by another process.
 */
async function cpuMs(times: number, fn: () => unknown): Promise<number> {
  await fn();
  const batches: number[] = [];
  for (let b = 0; b < 5; b++) {
    const start = process.cpuUsage();
    for (let i = 0; i < times; i++) await fn();
    const used = process.cpuUsage(start);
    batches.push((used.user + used.system) / 1000 / times);
  }
  return batches.sort((x, y) => x - y)[2]!;
}

/** Symmetric delete (SymSpell): every word's deletions up to the edits its length allows, mapped back to the words. */
class DeleteIndex {
  readonly keys = new Map<string, number[]>();
  constructor(private readonly words: string[]) {
    words.forEach((w, i) => {
      for (const d of deletes(w, maxEdits(w))) {
        const list = this.keys.get(d);
        if (list) list.push(i);
        else this.keys.set(d, [i]);
      }
    });
  }
  candidates(word: string): string[] {
    const found = new Set<number>();
    for (const d of deletes(word, maxEdits(word))) for (const i of this.keys.get(d) ?? []) found.add(i);
    return [...found].map((i) => this.words[i]!);
  }
}

function deletes(word: string, edits: number): Set<string> {
  const out = new Set([word]);
  let level = [word];
  for (let e = 0; e < edits; e++) {
    const next: string[] = [];
    for (const w of level) for (let i = 0; i < w.length; i++) {
      const d = w.slice(0, i) + w.slice(i + 1);
      if (!out.has(d)) out.add(d), next.push(d);
    }
    level = next;
  }
  return out;
}

const sizes = process.argv.slice(2).map(Number).filter(Boolean);
for (const n of sizes.length ? sizes : [10_000, 100_000]) {
  const words = vocabularyOf(await documents(n));
  const db = openSqlite(':memory:');
  await ensureSchema(db);
  await db.transaction(async () => {
    for (let i = 0; i < words.length; i += WORDS_PER_STATEMENT) {
      const chunk = words.slice(i, i + WORDS_PER_STATEMENT);
      await db.prepare(insertWords(chunk.length)).bind(...chunk.flatMap((w) => [w.term, 'docs', w.type])).run();
    }
    for (const sql of packVocabularyStatements('')) await db.prepare(sql).run();
  });
  db.exec("INSERT INTO search_vocab(search_vocab) VALUES ('optimize')");
  const packed = (await db.prepare(PACKED_VOCAB_QUERY).all<PackedVocabularyRow>()).results;
  const packedBytes = packed.reduce((sum, r) => sum + Buffer.byteLength(r.words), 0);
  let index!: TypoIndex;
  const buildMs = await cpuMs(1, () => (index = new TypoIndex(unpackVocabulary(packed))));
  console.log(`\n${n.toLocaleString('en-US')} documents: ${words.length.toLocaleString('en-US')} vocabulary rows, ${packed.length} packed rows (${(packedBytes / 1e6).toFixed(2)} MB, largest ${(Math.max(...packed.map((r) => Buffer.byteLength(r.words))) / 1e3).toFixed(0)} KB); unpack + build ${buildMs.toFixed(1)} ms CPU`);

  const plain = [...new Set(words.map((w) => foldWord(w.term)))];
  const started = process.cpuUsage();
  const deleteIndex = new DeleteIndex(plain);
  const deleteBuild = process.cpuUsage(started);
  const deleteBuildMs = (deleteBuild.user + deleteBuild.system) / 1000;
  console.log(`symmetric delete: ${deleteIndex.keys.size.toLocaleString('en-US')} keys, build ${deleteBuildMs.toFixed(0)} ms CPU`);

  const scopes: TypoScope[] = [{ site: '', type: 'en' }, { site: '', type: '' }];
  const rows: string[] = ['| word | scope | SQL lookup ms | in memory ms | symmetric delete ms | same candidates |', '|---|---|---:|---:|---:|---|'];
  let worst = 0;
  for (const scope of scopes) {
    for (const lookup of correctionLookups(MISSPELLINGS) as CorrectionLookup[]) {
      const sql = await cpuMs(2, () => sqlTypoLookup(db, lookup, scope));
      const memory = await cpuMs(100, () => index.lookup(lookup, scope));
      const del = await cpuMs(100, () => deleteIndex.candidates(foldWord(lookup.term)));
      const same = JSON.stringify(index.lookup(lookup, scope)) === JSON.stringify(await sqlTypoLookup(db, lookup, scope));
      worst = Math.max(worst, memory);
      rows.push(`| ${lookup.term} | ${scope.type || 'all'} | ${sql.toFixed(3)} | ${memory.toFixed(4)} | ${del.toFixed(4)} | ${same ? 'yes' : 'NO'} |`);
    }
  }
  console.log(rows.join('\n'));
  console.log(`slowest in-memory lookup: ${worst.toFixed(4)} ms CPU (target ≤ 0.5)`);
  db.close();
}
