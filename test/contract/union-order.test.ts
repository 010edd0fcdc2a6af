/**
 * A query without a type on a site of several types pages through one order (issue 44, item 1: "paging at any limit
 * finds the same pages", and the scores stay ascending as the box and the endpoint's callers sort by them). On every
 * driver, with the vocabulary read by the statement and held in memory, over the 48 astro-docs pages of test/fixtures
 * (languages as types) built by the real indexer.
 *
 * Observed on commit b008316: the coverage ranking judged per type (`eachType`) orders each page's rows in tiers in
 * `outcome` (every word as typed, then the rest), while the statement cuts the ranking at `offset + limit` by score
 * alone (no type corrected for a misspelling: no tiers in SQL). So a page holding only some of the words ranks inside
 * page 2 before pages holding every word that come on page 3, the order at `limit=10` is not the order at `limit=25`,
 * and the scores paged through are not ascending (`astro comp`: -0.0238 at 20th, -0.1108 at 21st). Fixed after:
 * `outcome` ranks in tiers only when the statement did (a type corrected for a misspelling).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearchHandler, resolveConfig, type SearchDatabase } from '../../src/index.js';
import { buildIndex, writeIndex } from '../../src/indexer/index.js';
import { forgetKnownIndexes as forgetTypoIndexes, knownIndex, latestKnownIndex as latestTypoIndex } from '../../src/search/known-index.js';
import { corpusOptions } from '../../bench/labeled-queries.js';
import { SAMPLE_CORPUS } from '../helpers/corpus.js';
import { DRIVERS, type TestDatabase } from '../helpers/databases.js';

const options = { ...corpusOptions(SAMPLE_CORPUS), database: 'union-order' };
const config = resolveConfig(options);

/** Queries most pages answer, some holding every word and some not, in several types. */
const QUERIES = ['astro comp', 'astro components layout', '"astro components"'];

interface Answer {
  results: { url: string; score: number; match: string }[];
}

describe.each(Object.entries(DRIVERS))('one order without a type: %s', (_name, open) => {
  let handle: TestDatabase;
  let db: SearchDatabase;
  let handler: (request: Request) => Promise<Response>;
  let warm = false;

  const ask = async (query: string): Promise<Answer> => {
    if (!warm) forgetTypoIndexes();
    const res = await handler(new Request(`https://example.com/api/search?${query}`));
    expect(res.status).toBe(200);
    return (await res.json()) as Answer;
  };
  /** Every result of the answer in order, paged through at `limit` (to maxOffset). */
  const pagedThrough = async (query: string, limit: number): Promise<Answer['results']> => {
    const all: Answer['results'] = [];
    for (let offset = 0; offset <= config.maxOffset; offset += limit) {
      const { results } = await ask(`${query}&limit=${limit}&offset=${offset}`);
      all.push(...results);
      if (results.length < limit) break;
    }
    return all;
  };

  beforeAll(async () => {
    handle = await open();
    db = handle.db;
    await writeIndex(db, config, (await buildIndex(config)).documents);
  }, 120_000);
  afterAll(() => handle.close());

  for (const memory of ['read by the statement', 'in memory'] as const) {
    describe(`the vocabulary ${memory}`, () => {
      beforeAll(async () => {
        handler = createSearchHandler(options, { db, cache: false });
        warm = memory === 'in memory';
        forgetTypoIndexes();
        if (!warm) return;
        await ask('q=astro');
        for (let i = 0; i < 400 && !latestTypoIndex(); i++) await new Promise((r) => setTimeout(r, 25));
        expect(latestTypoIndex()).toBeDefined();
      });
      afterAll(() => forgetTypoIndexes());

      it.each(QUERIES)('%s: the order at limit=10 is the order at limit=25, scores ascending', async (query) => {
        const q = `q=${encodeURIComponent(query)}`;
        const by10 = await pagedThrough(q, 10);
        const by25 = await pagedThrough(q, 25);
        expect(by10.length).toBeGreaterThan(25);
        expect(by10.map((r) => r.url)).toEqual(by25.map((r) => r.url));
        const scores = by10.map((r) => r.score);
        const descents = scores.flatMap((s, i) => (i > 0 && s < scores[i - 1]! ? [i] : []));
        expect({ query, descents }).toEqual({ query, descents: [] });
      });
    });
  }
});
