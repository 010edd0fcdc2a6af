/**
 * Long questions (issue 53 item 1, docs/ranking.md "Long questions"): a question of more informative words than
 * `maxTerms` is searched for its rarest words, counted in the index, so a word that tells the answer apart is found
 * wherever the reader put it; a misspelling of it is corrected; it costs what a short query costs, within 2×, in
 * statements (at most two, cold or warm) and, on D1, in rows read. On node:sqlite, better-sqlite3 and D1 (Miniflare).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig, searchIndex, type SearchDatabase } from '../../src/index.js';
import { buildIndex, writeIndex, type IndexDocument } from '../../src/indexer/index.js';
import { forgetKnownIndexes } from '../../src/search/known-index.js';
import { COUNTED_PAGES, MAX_COUNTED_WORDS } from '../../src/search/long-questions.js';
import { corpusOptions } from '../../bench/labeled-queries.js';
import { SAMPLE_CORPUS } from '../helpers/corpus.js';
import { countQueries, countRowsRead } from '../helpers/observe.js';
import { DRIVERS, type TestDatabase } from '../helpers/databases.js';

const config = resolveConfig({ ...corpusOptions(SAMPLE_CORPUS), maxQueryLength: 500 });

/** The word that names the answer comes after the eighth word, among more than `maxTerms` informative ones. */
const QUESTION =
  'I would like to know which settings and steps are needed when deploying a static website build of my project so that everything runs on Azion';
const MISSPELT = QUESTION.replace('Azion', 'Azionn');
/** What a reader types into a box for the same page. */
const SHORT = 'deploy azion';
/**
 * Box queries of words most of the sample's English pages hold. What a search reads grows with the pages its words
 * match, up to the ranking's window; a long question's rarest words still match as many pages as a broad box query,
 * so that is the short query it is held to. What it adds is the count of its words, bounded by COUNTED_PAGES.
 */
const BROAD_QUERIES = ['astro components', 'content collections'];

let documents: IndexDocument[];
beforeAll(async () => {
  documents = (await buildIndex(config)).documents;
}, 120_000);

/** A search of `q` in English, with the statements it ran and the rows they read (D1 reports them; SQLite does not). */
async function search(db: SearchDatabase, q: string) {
  const perStatement: number[] = [];
  const counted = countQueries(countRowsRead(db, (n) => perStatement.push(n)));
  const results = await searchIndex(config, { db: counted.db, q, type: 'en', limit: 10 });
  const rows = perStatement.reduce((a, b) => a + b, 0);
  return { results, urls: results.map((r) => r.url), statements: counted.count(), rows, perStatement };
}

describe.each(Object.entries(DRIVERS))('a long question, on %s', (name, open) => {
  /** D1 reports the rows each statement read (what it bills); SQLite reports none. */
  const billed = name.startsWith('D1');
  let handle: TestDatabase;
  beforeAll(async () => {
    handle = await open();
    await writeIndex(handle.db, config, documents);
  }, 120_000);
  afterAll(async () => {
    forgetKnownIndexes();
    await handle.close();
  });

  it('finds the page its rarest word names, past the first maxTerms words, cold and warm alike', async () => {
    expect(QUESTION.split(' ').indexOf('Azion')).toBeGreaterThan(config.maxTerms);
    forgetKnownIndexes();
    const cold = await search(handle.db, QUESTION);
    const warm = await search(handle.db, QUESTION);
    expect(cold.urls[0]).toMatch(/azion/);
    expect(warm.urls).toEqual(cold.urls);
    expect(cold.statements).toBeLessThanOrEqual(2);
    expect(warm.statements).toBeLessThanOrEqual(2);
  });

  it('corrects a misspelling of that word, which without correction finds nothing of it', async () => {
    const { urls } = await search(handle.db, MISSPELT);
    expect(urls[0]).toMatch(/azion/);
    const exact = resolveConfig({ ...corpusOptions(SAMPLE_CORPUS), maxQueryLength: 500, widen: false });
    const uncorrected = await searchIndex(exact, { db: handle.db, q: MISSPELT, type: 'en' });
    expect(uncorrected[0]?.url ?? '').not.toMatch(/azion/);
  });

  it('costs at most twice a short query: statements, and rows read where they are billed', async () => {
    await search(handle.db, SHORT);
    const short = await search(handle.db, SHORT);
    const long = await search(handle.db, QUESTION);
    expect(short.urls[0]).toMatch(/azion/);
    expect(long.statements).toBeLessThanOrEqual(2 * short.statements);
    expect(long.rows > 0, 'rows read are reported where they are billed').toBe(billed);
    if (!billed) return;
    expect(long.perStatement[0], 'the count of its words').toBeLessThanOrEqual(COUNTED_PAGES + MAX_COUNTED_WORDS);
    let rows = 0;
    for (const q of BROAD_QUERIES) rows += (await search(handle.db, q)).rows;
    expect(long.rows).toBeLessThanOrEqual((2 * rows) / BROAD_QUERIES.length);
  });

  it('searches the first maxTerms words under the literal ranking (SPEC.md), which counts nothing', async () => {
    const literal = resolveConfig({ ...corpusOptions(SAMPLE_CORPUS), maxQueryLength: 500, ranking: 'fts5' });
    const counted = countQueries(handle.db);
    const urls = (await searchIndex(literal, { db: counted.db, q: QUESTION, type: 'en' })).map((r) => r.url);
    // None of the first eight words is Azion's alone: its page is not first, where the coverage ranking puts it.
    expect(urls[0] ?? '').not.toMatch(/azion/);
    expect(counted.count()).toBeLessThanOrEqual(2);
  });
});
