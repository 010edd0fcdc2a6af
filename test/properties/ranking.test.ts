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
 * Four bugs of main are tolerated, narrowly, until the rewrite fixes them (./known-on-main.ts, ./regressions.test.ts).
 * Not asserted, and left for issue 52 to decide: with `type=` the order of a type's pages can differ from their order
 * without a type (`code`: the English imports guide is the first English page without a type, the seventh of eight
 * with `type=en`), and
 * with `tags=` the scores of corrected results and the suggestion can differ from those without tags (the order does
 * not).
 *
 * fast-check's seed is random; a failure prints it with the path of the smallest counterexample. Replay it with
 * `FC_SEED=<seed> FC_PATH=<path> npx vitest run test/properties/ranking.test.ts -t '<driver>.*<property>'`; run longer
 * with `FC_RUNS=<factor>` (each property's runs times the factor).
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/databases.js';
import { CONFIG, TAGS, corpusPages } from './corpus.js';
import { tolerates, type KnownBugName } from './known-on-main.js';
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
      /** Whether a known bug of main is tolerated here (./known-on-main.ts); each time it is, counted. */
      const tolerate = (bug: KnownBugName, happened: boolean) => {
        if (!happened || !tolerates(bug, driver, memory)) return false;
        meet(`known bug of main tolerated (${bug})`);
        return true;
      };
      let lookupsBefore = 0;

      beforeAll(async () => {
        site = indexed();
        await site.enter(memory);
        lookupsBefore = site.lookupsInMemory;
      });
      afterAll(() => {
        // The state was the one named: the vocabulary in memory answered the corrections (of some of the runs: not of a
        // single replayed one, which may have none), or was never asked.
        if (memory === 'not in memory') expect(site.lookupsInMemory).toBe(lookupsBefore);
        else if (!process.env.FC_SEED) expect(site.lookupsInMemory).toBeGreaterThan(lookupsBefore);
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
            // Known on main: with ranking fts5 and a type, a page without a corrected result suggests nothing.
            const missing = (page: Answer) => page.suggestion === undefined && suggestion !== undefined && !corrected(page.results);
            const suggested = (page: Answer) =>
              tolerate('fts5SuggestionOnlyWithACorrectedResult', a.variant === 'fts5' && !!a.type && missing(page)) ? suggestion : page.suggestion;
            expect({ limit: size, suggestions: pages.map(suggested) }).toEqual({ limit: size, suggestions: pages.map(() => suggestion) });
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
            // Known on main: past the first page of a search without a type, some configurations answer 500 on some drivers.
            const failsPastFirstPage = (error: string) => asking.status === 500 && offset > 0 && !a.type && asking.logged.includes(error);
            const tooDeep = tolerate('bothFacetsPastTheFirstPageNestTooDeep', a.variant === 'fts5' && failsPastFirstPage('VIEWs and/or subqueries nested too deep'));
            const d1InMemory = tolerate('facetsPastTheFirstPageOnD1WithTheVocabularyInMemory', a.variant === 'fields' && failsPastFirstPage('too many terms in compound SELECT'));
            // The counts do not depend on the page: read them from the first, where the known bug keeps them from this one.
            const { facets } = tooDeep || d1InMemory ? await site.search(a, { limit: size, offset: 0 }, 'type,tags') : asking.body;
            expect(asking.status === 200 || tooDeep || d1InMemory, `${asking.query}: ${asking.status} ${asking.body.error} ${asking.logged}`).toBe(true);
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
            // Known on main: with a type, only the asked type's own count is as choosing it gives.
            const own = (counts: Record<string, number>) => (a.type! in counts ? { [a.type!]: counts[a.type!]! } : {});
            let typeCounts = counted(facets!.type);
            const judgedInTheAskedType = !!a.type && !isDeepStrictEqual(typeCounts, types) && isDeepStrictEqual(own(typeCounts), own(types));
            if (tolerate('typeFacetJudgedInTheAskedType', judgedInTheAskedType)) typeCounts = types;
            expect({ type: typeCounts, tags: counted(facets!.tags) }).toEqual({ type: types, tags });
            if (Object.keys(tags).length > 1) meet('runs counting several tags');
          }),
          runs,
        );
      }, 600_000);
    });
  }
});
