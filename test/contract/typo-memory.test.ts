/**
 * The search with its vocabulary in memory (issue 36, items 1 and 2): once a search statement has read the vocabulary's
 * generation, the process loads the packed vocabulary, and from then on a misspelt word is corrected before the
 * statement, which is then the only one. Answers are those of the lookup in SQL, word for word, for every misspelling
 * of the tests and the benchmark, as a query alone and beside other words; a push that changes the vocabulary is
 * noticed in the same statement. On node:sqlite, better-sqlite3 and D1 (Miniflare), where the rows read are counted.
 */
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlite, type SqliteDriver } from '../../adapters/node.js';
import { resolveConfig, searchIndex, type SearchDatabase } from '../../src/index.js';
import { buildIndex, pushStatements, writeIndex, type IndexDocument } from '../../src/indexer/index.js';
import { forgetTypoIndexes, latestTypoIndex } from '../../src/search/packed-vocabulary.js';
import { corpusOptions } from '../../bench/labeled-queries.js';
import { CORPUS, HAS_FULL_CORPUS } from '../helpers/corpus.js';
import { MISSPELLINGS } from '../../bench/misspellings.js';
import { countQueries, countRowsRead } from '../helpers/observe.js';

const config = resolveConfig(corpusOptions(CORPUS));
/** Each misspelling alone, and after a word every page of its language has (the coverage ranking's usual case). */
const QUERIES = MISSPELLINGS.flatMap((word) => [word, `astro ${word}`]);

let documents: IndexDocument[];
beforeAll(async () => {
  documents = (await buildIndex(config)).documents;
}, 120_000);

/** Waits until the background load started by a search statement has put a vocabulary in memory. */
async function loaded(): Promise<string> {
  for (let i = 0; i < 400 && !latestTypoIndex(); i++) await new Promise((r) => setTimeout(r, 25));
  const memory = latestTypoIndex();
  if (!memory) throw new Error('no vocabulary was loaded into memory within 10 s');
  return memory.generation;
}

type Answer = { urls: string[]; statements: number };

async function answers(db: SearchDatabase): Promise<Map<string, Answer>> {
  const out = new Map<string, Answer>();
  for (const q of QUERIES) {
    const counted = countQueries(db);
    const urls = (await searchIndex(config, { db: counted.db, q, type: 'en', limit: 10 })).map((r) => r.url);
    out.set(q, { urls, statements: counted.count() });
  }
  return out;
}

describe.each(['node:sqlite', 'better-sqlite3'] as SqliteDriver[])('corrections from the vocabulary in memory, on %s', (driver) => {
  const db = openSqlite(':memory:', { driver, readOnly: false });
  afterAll(() => db.close());

  it('answers every misspelling as the lookup in SQL does, in one statement, and notices a push', async () => {
    await writeIndex(db, config, documents);
    // Nothing in memory, as in a new process: the first searches look their words up in SQL.
    forgetTypoIndexes();
    const inSql = await answers(db);
    const generation = await loaded();
    const inMemory = await answers(db);
    for (const q of QUERIES) expect({ q, urls: inMemory.get(q)!.urls }).toEqual({ q, urls: inSql.get(q)!.urls });
    // A correction or completion took two statements (look up, then search again); in memory it takes one. A word the
    // vocabulary would correct while enough pages hold it as typed (the stemmer shortens it, typed partway) takes two,
    // where the lookup in SQL took one: the statement counts those pages and the query stands.
    const corrected = QUERIES.filter((q) => inSql.get(q)!.statements === 2);
    expect(corrected.length).toBeGreaterThan(10);
    expect(corrected.filter((q) => inMemory.get(q)!.statements !== 1)).toEqual([]);
    const standing = QUERIES.filter((q) => inMemory.get(q)!.statements > inSql.get(q)!.statements);
    expect(standing.length).toBeLessThan(corrected.length);
    for (const q of standing) expect(inMemory.get(q)!.statements).toBe(2);

    // A push that makes a misspelling a word of the site: the statement reads the new generation, so the index in
    // memory (which would still correct it) is not used, and the word is found as typed.
    const page: IndexDocument = { ...documents.find((d) => d.type === 'en')!, url: '/en/cahce-page', title: 'Cahce', content: 'The cahce page.', sections: [], more: '' };
    await writeIndex(db, config, [...documents, page]);
    const after = await searchIndex(config, { db, q: 'cahce', type: 'en', limit: 10 });
    expect(after.map((r) => r.url)).toContain('/en/cahce-page');
    expect(after.find((r) => r.url === '/en/cahce-page')!.match).not.toBe('typo');
    expect(await loaded()).not.toBe(generation);
  }, 240_000);
});

// Its words (wrnagler, middelware) are the full corpus's: skipped without ../shared, as helpers/corpus.ts says.
describe.skipIf(!HAS_FULL_CORPUS)('corrections from the vocabulary in memory, a process serving two databases', () => {
  it('keeps each database’s vocabulary: searches alternating between them correct in one statement each', async () => {
    const [a, b] = [openSqlite(':memory:', { readOnly: false }), openSqlite(':memory:', { readOnly: false })];
    try {
      for (const db of [a, b]) await writeIndex(db, config, documents);
      forgetTypoIndexes();
      for (const db of [a, b]) {
        await searchIndex(config, { db, q: 'middelware', type: 'en' });
        for (let i = 0; i < 400 && latestTypoIndex(db) === undefined; i++) await new Promise((r) => setTimeout(r, 25));
      }
      // Statements counted on the database objects themselves (a wrapper would be another object to the process).
      const statements = new Map<object, number>();
      for (const db of [a, b]) {
        const prepare = db.prepare.bind(db);
        db.prepare = (sql) => (statements.set(db, (statements.get(db) ?? 0) + 1), prepare(sql));
      }
      for (const db of [a, b, a, b]) {
        const before = statements.get(db) ?? 0;
        const results = await searchIndex(config, { db, q: 'wrnagler', type: 'en' });
        expect(results[0]?.match).toBe('typo');
        expect((statements.get(db) ?? 0) - before).toBe(1);
      }
    } finally {
      a.close();
      b.close();
    }
  }, 240_000);
});

// Its words (wrnagler, middelware) are the full corpus's: skipped without ../shared, as helpers/corpus.ts says.
describe.skipIf(!HAS_FULL_CORPUS)('corrections from the vocabulary in memory, on D1 (Miniflare): rows read', () => {
  let mf: Miniflare;
  let d1: SearchDatabase & { batch(statements: unknown[]): Promise<unknown> };
  beforeAll(async () => {
    mf = new Miniflare({ modules: true, script: 'export default { fetch: () => new Response("") }', d1Databases: { DB: 'typo-memory' } });
    d1 = (await mf.getD1Database('DB')) as unknown as typeof d1;
    const statements = pushStatements(config, documents);
    for (let i = 0; i < statements.length; i += 50) await d1.batch(statements.slice(i, i + 50).map((s) => d1.prepare(s)));
  }, 240_000);
  afterAll(() => mf?.dispose());

  it('reads the packed vocabulary once (a few rows, not the vocabulary), then corrects with fewer rows read', async () => {
    const search = async (q: string) => {
      let rows = 0;
      const counted = countRowsRead(d1, (n) => (rows += n));
      const urls = (await searchIndex(config, { db: counted, q, type: 'en', limit: 10 })).map((r) => r.url);
      return { urls, rows };
    };
    // A cold isolate: the search looks its words up in SQL, and the background load reads the packed rows.
    forgetTypoIndexes();
    let loadRows = 0;
    const cold = await search('middelware');
    expect(cold.urls.length).toBeGreaterThan(0);
    const counting = countRowsRead(d1, (n) => (loadRows += n));
    // The load reads through the database the search was given; read the same rows as it does, to count them.
    await (await import('../../src/search/packed-vocabulary.js')).loadTypoIndex(counting);
    await loaded();
    const { results: words } = await d1.prepare('SELECT count(*) AS n FROM search_vocab').all<{ n: number }>();
    expect(loadRows).toBeLessThan(words[0]!.n / 1000);
    const warm = await search('middelware');
    expect(warm.urls).toEqual(cold.urls);
    expect(warm.rows).toBeLessThan(cold.rows);
    console.log(`[typo-memory] D1 rows read: cold first search ${cold.rows}, loading the packed vocabulary ${loadRows} (vocabulary ${words[0]!.n} rows), the same search warm ${warm.rows}`);
  }, 120_000);
});
