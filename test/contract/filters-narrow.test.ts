/**
 * A filter only ever narrows (issue 44, item 1), on every driver (node:sqlite, better-sqlite3, D1 in Miniflare), over
 * real pages: the 48 astro-docs pages of test/fixtures built by the real indexer, each given tags by its position (the
 * pages have none of their own). For prefixes, misspellings and several words, with the vocabulary read by the
 * statement and held in memory alike:
 *
 * - what `tags=` finds is part of what the query finds without it, in every site and type searched;
 * - paging through at `limit=10` finds the same pages as at `limit=25`;
 * - every tag's count is the number of pages that choosing it gives, paged through;
 * - what `type=` finds is part of what the query finds without it, and each type's count is what choosing it gives.
 *
 * A query is judged in the type asked, and a query without a type in each type apart, as `type=` that type judges it
 * (docs/decisions.md, "Filters only narrow"): a word typed partway is completed in one language and not in another.
 *
 * Nothing below is a hard-coded result: each property compares two answers of the same index.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearchHandler, resolveConfig, type SearchDatabase } from '../../src/index.js';
import { buildIndex, writeIndex } from '../../src/indexer/index.js';
import { forgetKnownIndexes as forgetTypoIndexes, knownIndex, latestKnownIndex as latestTypoIndex } from '../../src/search/known-index.js';
import { corpusOptions } from '../../bench/labeled-queries.js';
import { SAMPLE_CORPUS } from '../helpers/corpus.js';
import { DRIVERS, type TestDatabase } from '../helpers/databases.js';
import { observe } from '../helpers/observe.js';

const options = { ...corpusOptions(SAMPLE_CORPUS), database: 'narrow' };
const config = resolveConfig(options);
const TAGS = ['alpha', 'beta', 'gamma'];

/** Typed partway (past a stem, or not), misspelled, and several words with the last one partway or misspelled. */
const QUERIES = ['integrat', 'compon', 'configur', 'deplo', 'integraton', 'confgure', 'content collecti', 'astro integrat', 'build confg', 'server rendr'];

interface Answer {
  results: { url: string }[];
  facets?: { type?: { value: string; count: number }[]; tags?: { value: string; count: number }[] };
}

describe.each(Object.entries(DRIVERS))('a filter only narrows: %s', (_name, open) => {
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
  /** Every page of the answer, paged through at `limit` (to maxOffset). */
  const pagedThrough = async (query: string, limit = 10): Promise<string[]> => {
    const urls: string[] = [];
    for (let offset = 0; offset <= config.maxOffset; offset += limit) {
      const { results } = await ask(`${query}&limit=${limit}&offset=${offset}`);
      urls.push(...results.map((r) => r.url));
      if (results.length < limit) break;
    }
    expect(new Set(urls).size).toBe(urls.length);
    return urls.sort();
  };
  const q = (query: string) => `q=${encodeURIComponent(query)}`;

  beforeAll(async () => {
    handle = await open();
    db = handle.db;
    const { documents } = await buildIndex(config);
    // Tags by position: alpha on every other page, beta on every third, gamma on every fifth.
    const tagged = documents.map((d, i) => ({ ...d, tags: TAGS.filter((_, t) => i % [2, 3, 5][t]! === 0).join(' ') }));
    await writeIndex(db, config, tagged);
  }, 120_000);
  afterAll(() => handle.close());

  // The coverage ranking (the default) completes and corrects; steps as gates (`ranking: 'fts5'`) also widen to any
  // word, which is where the answer followed `limit`.
  for (const [which, memory] of (['fields', 'fts5'] as const).flatMap((r) => (['read by the statement', 'in memory'] as const).map((m) => [r, m] as const))) {
    describe(`ranking ${which}, the vocabulary ${memory}`, () => {
      beforeAll(async () => {
        handler = createSearchHandler({ ...options, ranking: which }, { db, cache: false });
        warm = memory === 'in memory';
        forgetTypoIndexes();
        if (!warm) return;
        await ask('q=astro');
        for (let i = 0; i < 400 && !latestTypoIndex(); i++) await new Promise((r) => setTimeout(r, 25));
        expect(latestTypoIndex()).toBeDefined();
      });

      it.each(QUERIES)('%s: tags= finds part of what the query finds, with or without a type', async (query) => {
        for (const type of ['', '&type=en', '&type=fr']) {
          const all = new Set(await pagedThrough(`${q(query)}${type}`));
          for (const filter of [...TAGS.map((t) => `tags=${t}`), 'tags=alpha,beta']) {
            const some = await pagedThrough(`${q(query)}${type}&${filter}`);
            expect({ type, filter, outside: some.filter((url) => !all.has(url)) }).toEqual({ type, filter, outside: [] });
          }
        }
      });

      it.each(QUERIES)('%s: the pages at limit=10 are the pages at limit=25', async (query) => {
        expect(await pagedThrough(q(query), 10)).toEqual(await pagedThrough(q(query), 25));
        expect(await pagedThrough(`${q(query)}&tags=alpha`, 10)).toEqual(await pagedThrough(`${q(query)}&tags=alpha`, 25));
        expect(await pagedThrough(`${q(query)}&type=en&tags=alpha`, 10)).toEqual(await pagedThrough(`${q(query)}&type=en&tags=alpha`, 25));
      });

      it.each(QUERIES)('%s: type= finds part of what the query finds, with or without tags', async (query) => {
        for (const within of ['', '&tags=alpha']) {
          const all = new Set(await pagedThrough(`${q(query)}${within}`));
          for (const type of config.types) {
            const some = await pagedThrough(`${q(query)}${within}&type=${type}`);
            expect({ type, within, outside: some.filter((url) => !all.has(url)) }).toEqual({ type, within, outside: [] });
          }
        }
      });

      it.each(QUERIES)('%s: each type count is what choosing the type gives, with or without tags', async (query) => {
        for (const within of ['', '&tags=alpha']) {
          const { facets } = await ask(`${q(query)}${within}&facets=type`);
          const counts = Object.fromEntries(facets!.type!.map(({ value, count }) => [value, count]));
          const chosen: Record<string, number> = {};
          for (const type of config.types) {
            const n = (await pagedThrough(`${q(query)}${within}&type=${type}`)).length;
            if (n > 0) chosen[type] = n;
          }
          expect({ within, counts }).toEqual({ within, counts: chosen });
        }
      });

      it.each(QUERIES)('%s: without a type, one statement with the vocabulary in memory (coverage), at most two otherwise', async (query) => {
        let statements = 0;
        // Search statements only: a cold handler also loads the vocabulary in the background, which no answer waits for.
        const counted = createSearchHandler({ ...options, ranking: which }, { db: observe(db, (sql) => void (sql.startsWith('WITH') && statements++)), cache: false });
        for (const asked of ['', '&facets=type,tags', '&tags=alpha&offset=10']) {
          statements = 0;
          if (!warm) forgetTypoIndexes();
          expect((await counted(new Request(`https://example.com/api/search?${q(query)}${asked}`))).status).toBe(200);
          // A search runs at least one statement: an answer that ran none came from somewhere else, and fails here.
          const allowed = warm && which === 'fields' ? [1] : [1, 2];
          expect(allowed, `${asked}: ${statements} search statements`).toContain(statements);
        }
      });

      it.each(QUERIES)('%s: each tag count is what choosing the tag gives, with or without a type', async (query) => {
        for (const within of ['', '&tags=alpha', '&type=en', '&type=fr&tags=beta']) {
          const { facets } = await ask(`${q(query)}${within}&facets=tags`);
          const counts = Object.fromEntries(facets!.tags!.map(({ value, count }) => [value, count]));
          // Every tag the pages carry, chosen in turn: the facet lists exactly those that find pages, with their
          // counts, so a facet that leaves a tag out (or lists none) fails as surely as one that miscounts.
          const chosen: Record<string, number> = {};
          for (const tag of TAGS) {
            const n = (await pagedThrough(`${q(query)}${within}&tags=${tag}`)).length;
            if (n > 0) chosen[tag] = n;
          }
          // Without a filter every query finds tagged pages (alpha is on every other one): the comparison is never empty.
          if (within === '') expect(Object.keys(chosen), 'tags the unfiltered query finds').not.toHaveLength(0);
          expect({ within, counts }).toEqual({ within, counts: chosen });
        }
      });
    });
  }
});
