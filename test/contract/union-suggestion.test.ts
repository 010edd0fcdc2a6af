/**
 * A query without a type on a site of several types suggests the same correction on every page of its answer (the
 * suggestion is the query's, "showing results for …", not the page's). On every driver, both rankings, with the
 * vocabulary read by the statement and held in memory, over the 48 astro-docs pages of test/fixtures (languages as
 * types) built by the real indexer.
 *
 * Observed on commit b008316: past the first page the best result is not among the page's rows, and `typedSuggestion`
 * (src/search/search.ts) then takes the first corrected type's corrections, whichever type the best result is of:
 * `configuraton` answers "configuration" at offset 0 and the German "konfiguration" at offset 5; `exmple` "exemple"
 * then "example"; `componnet` "component" then "components". Fixed after: past the first page the statement reads the
 * best result's type (a `b` row, one row read), and its type's corrections are suggested on every page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearchHandler, resolveConfig, type SearchDatabase } from '../../src/index.js';
import { buildIndex, writeIndex } from '../../src/indexer/index.js';
import { forgetKnownIndexes as forgetTypoIndexes, knownIndex, latestKnownIndex as latestTypoIndex } from '../../src/search/known-index.js';
import { corpusOptions } from '../../bench/labeled-queries.js';
import { SAMPLE_CORPUS } from '../helpers/corpus.js';
import { DRIVERS, type TestDatabase } from '../helpers/databases.js';

const options = { ...corpusOptions(SAMPLE_CORPUS), database: 'union-suggestion' };
const config = resolveConfig(options);

/** Misspellings corrected differently in different languages. */
const QUERIES = ['configuraton', 'exmple', 'componnet'];

describe.each(Object.entries(DRIVERS))('one suggestion on every page without a type: %s', (_name, open) => {
  let handle: TestDatabase;
  let db: SearchDatabase;
  let handler: (request: Request) => Promise<Response>;
  let warm = false;

  const suggestionAt = async (query: string, offset: number): Promise<string | undefined> => {
    if (!warm) forgetTypoIndexes();
    const res = await handler(new Request(`https://example.com/api/search?q=${encodeURIComponent(query)}&limit=5&offset=${offset}`));
    expect(res.status).toBe(200);
    return ((await res.json()) as { suggestion?: string }).suggestion;
  };

  beforeAll(async () => {
    handle = await open();
    db = handle.db;
    await writeIndex(db, config, (await buildIndex(config)).documents);
  }, 120_000);
  afterAll(() => handle.close());

  for (const [ranking, memory] of (['fields', 'fts5'] as const).flatMap((r) => (['read by the statement', 'in memory'] as const).map((m) => [r, m] as const))) {
    describe(`ranking ${ranking}, the vocabulary ${memory}`, () => {
      beforeAll(async () => {
        handler = createSearchHandler({ ...options, ranking }, { db, cache: false });
        warm = memory === 'in memory';
        forgetTypoIndexes();
        if (!warm) return;
        await handler(new Request('https://example.com/api/search?q=astro'));
        for (let i = 0; i < 400 && !latestTypoIndex(); i++) await new Promise((r) => setTimeout(r, 25));
        expect(latestTypoIndex()).toBeDefined();
      });
      afterAll(() => forgetTypoIndexes());

      it.each(QUERIES)('%s: the suggestion at offset 5 and 10 is the one at offset 0', async (query) => {
        const first = await suggestionAt(query, 0);
        expect(first).toBeDefined();
        expect({ query, later: [await suggestionAt(query, 5), await suggestionAt(query, 10)] }).toEqual({ query, later: [first, first] });
      });
    });
  }
});
