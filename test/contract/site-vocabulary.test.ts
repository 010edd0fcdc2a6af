/**
 * The judgement in memory (src/search/site-vocabulary.ts, src/search/judgement.ts): a search judges the query's words
 * by the vocabulary kept in memory, which the first search of a process reads (the packed rows, a few rows per site)
 * in the statement it needs anyway. Cold or warm, the answer is the same; at most two statements either way; a type
 * answers alike whether asked alone or with every type; a push is noticed; a process serving two databases keeps
 * each one's. On node:sqlite, better-sqlite3 and D1 (Miniflare), where the rows read are counted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig, searchIndex, type SearchDatabase } from '../../src/index.js';
import { buildIndex, writeIndex, type IndexDocument } from '../../src/indexer/index.js';
import { PACKED_VOCAB_QUERY } from '../../src/db/schema.js';
import { SiteVocabulary, type PackedVocabularyRow } from '../../src/search/site-vocabulary.js';
import { forgetKnownIndexes, knownIndex } from '../../src/search/known-index.js';
import { corpusOptions } from '../../bench/labeled-queries.js';
import { SAMPLE_CORPUS } from '../helpers/corpus.js';
import { MISSPELLINGS, WORDS } from '../../bench/misspellings.js';
import { countQueries, countRowsRead } from '../helpers/observe.js';
import { DRIVERS, type TestDatabase } from '../helpers/databases.js';

const config = resolveConfig(corpusOptions(SAMPLE_CORPUS));
/** Each misspelling alone, and after a word every page of its language has (the coverage ranking's usual case). */
const MISSPELT = MISSPELLINGS.flatMap((word) => [word, `astro ${word}`]);

let documents: IndexDocument[];
beforeAll(async () => {
  documents = (await buildIndex(config)).documents;
}, 120_000);

/** A search of `q`, with the statements it ran and the rows they read. */
async function search(db: SearchDatabase, q: string, type?: string) {
  let rows = 0;
  const counted = countQueries(countRowsRead(db, (n) => (rows += n)));
  const results = await searchIndex(config, { db: counted.db, q, ...(type ? { type } : {}), limit: 10 });
  return { urls: results.map((r) => r.url), matches: results.map((r) => r.match), statements: counted.count(), rows };
}

describe.each(Object.entries(DRIVERS))('the vocabulary in memory, on %s', (_name, open) => {
  let handle: TestDatabase;
  beforeAll(async () => {
    handle = await open();
    await writeIndex(handle.db, config, documents);
  }, 120_000);
  afterAll(async () => {
    forgetKnownIndexes();
    await handle.close();
  });

  it('answers every misspelling the same cold (reading the vocabulary) and warm, in at most two statements', async () => {
    for (const type of ['en', '']) {
      for (const q of MISSPELT) {
        forgetKnownIndexes();
        const cold = await search(handle.db, q, type);
        expect(knownIndex(handle.db), 'the first search keeps the vocabulary it read').toBeDefined();
        const warm = await search(handle.db, q, type);
        expect(warm.urls, `${q} [${type}]`).toEqual(cold.urls);
        expect(warm.matches, `${q} [${type}]`).toEqual(cold.matches);
        expect(cold.statements).toBeLessThanOrEqual(2);
        expect(warm.statements).toBeLessThanOrEqual(2);
      }
    }
  }, 300_000);

  it('answers a word spelt right warm in one statement, and finds every misspelling corrected', async () => {
    await search(handle.db, 'astro', 'en');
    for (const word of WORDS) expect((await search(handle.db, word, 'en')).statements, word).toBe(1);
    const corrected = await searchIndex(config, { db: handle.db, q: 'middelware', type: 'en' });
    expect(corrected.length).toBeGreaterThan(0);
    expect(corrected[0]!.match).toBe('typo');
  });

  it('reads the packed vocabulary cold (a few rows, not a row per word), and no vocabulary warm', async () => {
    forgetKnownIndexes();
    const cold = await search(handle.db, 'middelware', 'en');
    const warm = await search(handle.db, 'middelware', 'en');
    const { results } = await handle.db.prepare('SELECT count(*) AS n FROM search_vocab').all<{ n: number }>();
    const packed = (await handle.db.prepare(PACKED_VOCAB_QUERY).all()).results.length;
    expect(packed).toBeLessThan(results[0]!.n / 1000);
    // Rows read are counted where the database reports them (D1).
    if (cold.rows > 0) expect(warm.rows).toBeLessThan(cold.rows);
  });
});

describe('a type answers alike, asked alone or with every type', () => {
  let rows: PackedVocabularyRow[];
  beforeAll(async () => {
    const { db, close } = await DRIVERS['node:sqlite']!();
    await writeIndex(db, config, documents);
    rows = (await db.prepare(PACKED_VOCAB_QUERY).all<PackedVocabularyRow>()).results;
    await close();
  });

  it('gives each type the same candidates whichever types are asked together', () => {
    const vocabulary = new SiteVocabulary(rows);
    for (const word of [...MISSPELLINGS, ...WORDS]) {
      const every = vocabulary.judge(word, '', config.types);
      for (const type of config.types) expect(vocabulary.judge(word, '', [type]).get(type), `${word} [${type}]`).toEqual(every.get(type));
    }
  });

  it('knows a word in the types whose pages hold it only, and ranks a misspelling’s nearest words first', () => {
    const vocabulary = new SiteVocabulary(rows);
    const middleware = vocabulary.judge('middleware', '', config.types);
    expect(middleware.get('en')).toEqual({ known: true, candidates: [] });
    const cahce = vocabulary.judge('cahce', '', ['en']).get('en')!;
    expect(cahce.known).toBe(false);
    expect(cahce.candidates.slice(0, 5)).toContain('cache');
    // A type the site does not have knows nothing and offers nothing.
    expect(vocabulary.judge('cache', '', ['nowhere']).get('nowhere')).toEqual({ known: false, candidates: [] });
  });
});

describe('pushes and databases', () => {
  const pages = (word: string, site = ''): IndexDocument[] =>
    ['one', 'two'].map((n) => ({ title: `${word} ${n}`, description: '', content: `All about ${word} and more.`, tags: '', url: `/${word}/${n}`, site, type: 'en', date: '', emoji: '', sections: [] }));
  const small = resolveConfig({ database: 'd', sources: [{ dir: 'en', type: 'en', url: '/:slug' }] });

  it('notices a push that changes the vocabulary, and judges by the new one', async () => {
    const { db, close } = await DRIVERS['node:sqlite']!();
    try {
      await writeIndex(db, small, pages('quokka'));
      forgetKnownIndexes();
      expect((await searchIndex(small, { db, q: 'wombatt' })).length).toBe(0);
      const before = knownIndex(db)!.generation;
      await writeIndex(db, small, pages('wombatt'.slice(0, -1)));
      const after = await searchIndex(small, { db, q: 'wombatt' });
      expect(after.map((r) => r.match)).toEqual(['typo', 'typo']);
      expect(knownIndex(db)!.generation).not.toBe(before);
    } finally {
      await close();
    }
  });

  it('keeps each database’s vocabulary in a process serving two', async () => {
    const first = await DRIVERS['node:sqlite']!();
    const second = await DRIVERS['node:sqlite']!();
    try {
      await writeIndex(first.db, small, pages('quokka'));
      await writeIndex(second.db, small, pages('wallaby'));
      forgetKnownIndexes();
      // Each database as one object, as a server holds it (a D1 session, new each request, falls back to the last index read).
      const one = countQueries(first.db);
      const two = countQueries(second.db);
      for (let round = 0; round < 3; round++) {
        const [before1, before2] = [one.count(), two.count()];
        expect((await searchIndex(small, { db: one.db, q: 'quokak' })).map((r) => r.match)).toEqual(['typo', 'typo']);
        expect((await searchIndex(small, { db: two.db, q: 'walaby' })).map((r) => r.match)).toEqual(['typo', 'typo']);
        // Once each is known: the count of the pages holding the word as typed, then the search.
        if (round > 0) expect([one.count() - before1, two.count() - before2]).toEqual([2, 2]);
      }
    } finally {
      await first.close();
      await second.close();
    }
  });
});
