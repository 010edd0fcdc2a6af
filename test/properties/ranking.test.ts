/**
 * The ranking's invariants (issue 52, item 5, "Correct by construction"), as properties over random queries, page
 * sizes, types and tags, on every driver (node:sqlite, better-sqlite3, D1 in Miniflare), through the endpoint:
 *
 * 1. pages of any size concatenate to one order: paging at any `limit` gives exactly the results of one page holding
 *    them all, field for field (url, score, match, snippet, sections…), scores ascending, no page twice;
 * 2. every page of a query suggests the same (or nothing), the page past the last one too;
 * 3. `type=` only narrows: the pages found with a type are those found without one that are of that type;
 * 4. `tags=` only narrows: the pages found with tags are those found without them that carry every tag, in order;
 * 5. each facet count is what choosing it gives: a type's count is the number of results with that type (and the same
 *    tags), a tag's the number with that tag added; no value with results is left out.
 *
 * Over a small multilingual site of real pages (./corpus.ts) and queries made of its words (./queries.ts), with the
 * default ranking, `ranking: 'fts5'` and `widen: false`; each property with the typo vocabulary not in memory (as in a
 * new process: every request starts with none) and in memory (loaded after a first search); every request checks the
 * state it is in (./site.ts). Nothing is compared with a stored answer: each property compares answers of one index.
 *
 * Four bugs the properties found in the ranking before issue 52 are named cases of ./regressions.test.ts. Not asserted:
 * that `type=` keeps the order of a type's pages, which it does not promise (a title scores every corrected word of the
 * query whatever the type that corrected it; on a large site the window of pages reranked is the type's own), nor that
 * `tags=` keeps scores or the suggestion (a tag filter may leave out the answer's best result).
 *
 * fast-check's seed is random; a failure prints it with the path of the smallest counterexample. Replay it with
 * `FC_SEED=<seed> FC_PATH=<path> npx vitest run test/properties/ranking.test.ts -t '<driver>.*<property>'`; run longer
 * with `FC_RUNS=<factor>` (each property's runs times the factor).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/databases.js';
import { CONFIG, TAGS, corpusPages } from './corpus.js';
import { queries, vocabularyOf } from './queries.js';
import { MEMORIES, pathOf, useIndexedSite, type Answer, type Asked, type IndexedSite, type Result, type Variant } from './site.js';

const PAGES = await corpusPages();
const TYPE_OF = new Map(PAGES.map((p) => [p.url, p.type]));
const TAGS_OF = new Map(PAGES.map((p) => [p.url, new Set(p.tags.split(' ').filter(Boolean))]));
const TYPES = [...CONFIG.types].sort();

/** Runs of each property, per driver and state (a D1 search crosses to workerd: several times slower). */
const RUNS: Record<string, number> = { 'node:sqlite': 40, 'better-sqlite3': 40, 'D1 (Miniflare)': 20 };
const FACTOR = Number(process.env.FC_RUNS ?? 1);

const variant = fc.oneof(
  { arbitrary: fc.constant<Variant>('fields'), weight: 3 },
  { arbitrary: fc.constant<Variant>('fts5'), weight: 2 },
  { arbitrary: fc.constant<Variant>('fields, widen: false'), weight: 1 },
);
const query = queries(vocabularyOf(PAGES));
const anyType = fc.oneof({ arbitrary: fc.constant(undefined), weight: 2 }, { arbitrary: fc.constantFrom(...TYPES), weight: 3 });
const asked: fc.Arbitrary<Asked> = fc.record({ variant, q: query, type: anyType, tags: fc.subarray([...TAGS], { maxLength: 2 }) });
const limit = fc.integer({ min: 1, max: 25 });

/** Whether a page holds a result found through a correction. */
const corrected = (results: Result[]) => results.some((r) => r.match === 'typo');

/** fast-check, a failure's seed and path replayable from the environment. */
async function check<T extends unknown[]>(property: fc.IAsyncPropertyWithHooks<T>, runs: number): Promise<void> {
  const replay = process.env.FC_SEED ? { seed: Number(process.env.FC_SEED), ...(process.env.FC_PATH ? { path: process.env.FC_PATH } : {}) } : {};
  await fc.assert(property, { numRuns: Math.max(1, Math.round(runs * FACTOR)), ...replay });
}

describe.each(Object.entries(DRIVERS))('ranking properties on %s', (driver, open) => {
  const indexed = useIndexedSite(open);
  const runs = RUNS[driver] ?? 15;

  for (const memory of MEMORIES) {
    describe(`the typo vocabulary ${memory}`, () => {
      let site: IndexedSite;
      /** What the runs met, printed after the block: a property that met nothing checked nothing. */
      const met = new Map<string, number>();
      const meet = (what: string) => met.set(what, (met.get(what) ?? 0) + 1);
      let readsBefore = 0;

      beforeAll(async () => {
        site = indexed();
        await site.enter(memory);
        readsBefore = site.vocabularyReads;
      });
      afterAll(() => {
        // The state was the one named: the vocabulary read by the searches (each request checked it), or never.
        if (memory === 'in memory') expect(site.vocabularyReads).toBe(readsBefore);
        else expect(site.vocabularyReads).toBeGreaterThan(readsBefore);
        console.info(`[ranking properties] ${driver}, the typo vocabulary ${memory}: ${[...met].map(([what, n]) => `${what} ${n}`).join('; ')}`);
      });

      it('pages of any size concatenate to one order: scores ascending, no page twice', async () => {
        let severalPages = 0;
        await check(
          fc.asyncProperty(asked, limit, limit, async (a, first, second) => {
            const { results } = await site.whole(a);
            const urls = results.map((r) => r.url);
            expect(new Set(urls).size).toBe(urls.length);
            const scores = results.map((r) => r.score);
            expect(scores).toEqual([...scores].sort((x, y) => x - y));
            for (const size of [first, second]) {
              const pages = await site.pagedThrough(a, size);
              expect({ limit: size, results: pages.flatMap((p) => p.results) }).toEqual({ limit: size, results });
              if (pages.length > 2) severalPages++;
            }
            if (corrected(results)) meet('runs with a corrected result');
          }),
          runs,
        );
        // Some answers were long enough to page through (past two full pages).
        expect(severalPages).toBeGreaterThan(0);
      }, 600_000);

      it('every page of a query suggests the same', async () => {
        await check(
          fc.asyncProperty(asked, limit, async (a, size) => {
            const { suggestion } = await site.whole(a);
            if (suggestion) meet('runs with a suggestion');
            const pages = await site.pagedThrough(a, size);
            expect({ limit: size, suggestions: pages.map((page: Answer) => page.suggestion) }).toEqual({ limit: size, suggestions: pages.map(() => suggestion) });
          }),
          runs,
        );
      }, 600_000);

      it('type= only narrows: the pages found with a type are those found without one that are of that type', async () => {
        await check(
          fc.asyncProperty(asked, async (a) => {
            const everywhere = (await site.whole({ ...a, type: undefined })).results.map(pathOf);
            for (const type of TYPES) {
              const narrowed = (await site.whole({ ...a, type })).results.map(pathOf).sort();
              expect({ type, urls: narrowed }).toEqual({ type, urls: everywhere.filter((url) => TYPE_OF.get(url) === type).sort() });
            }
            if (new Set(everywhere.map((url) => TYPE_OF.get(url))).size > 1) meet('runs finding pages of several types');
          }),
          runs,
        );
      }, 600_000);

      it('tags= only narrows: the pages found with tags are those found without them that carry every tag, in order', async () => {
        await check(
          fc.asyncProperty(asked, fc.subarray([...TAGS], { minLength: 1, maxLength: 3 }), async (a, tags) => {
            const untagged = (await site.whole({ ...a, tags: [] })).results.map(pathOf);
            const narrowed = (await site.whole({ ...a, tags })).results.map(pathOf);
            expect({ tags, urls: narrowed }).toEqual({ tags, urls: untagged.filter((url) => tags.every((tag) => TAGS_OF.get(url)!.has(tag))) });
            if (narrowed.length > 0 && narrowed.length < untagged.length) meet('runs narrowed to some of the pages');
          }),
          runs,
        );
      }, 600_000);

      it('each facet count is what choosing it gives', async () => {
        await check(
          // Counted over every match, whatever page is asked.
          fc.asyncProperty(asked, limit, fc.nat(30), async (a, size, offset) => {
            const asking = await site.request(a, { limit: size, offset }, 'type,tags');
            expect(asking.status, `${asking.query}: ${asking.status} ${asking.body.error} ${asking.logged}`).toBe(200);
            const { facets } = asking.body;
            const chosen = async (choice: Partial<Asked>) => (await site.whole({ ...a, ...choice })).results.length;
            const counted = (values: { value: string; count: number }[]) => {
              expect(new Set(values.map((v) => v.value)).size).toBe(values.length);
              return Object.fromEntries(values.map(({ value, count }) => [value, count]));
            };
            const types: Record<string, number> = {};
            for (const type of TYPES) {
              const n = await chosen({ type });
              if (n > 0) types[type] = n;
            }
            const tags: Record<string, number> = {};
            for (const tag of TAGS) {
              const n = await chosen({ tags: [...new Set([...a.tags, tag])] });
              if (n > 0) tags[tag] = n;
            }
            expect({ type: counted(facets!.type), tags: counted(facets!.tags) }).toEqual({ type: types, tags });
            if (Object.keys(tags).length > 1) meet('runs counting several tags');
          }),
          runs,
        );
      }, 600_000);
    });
  }
});
