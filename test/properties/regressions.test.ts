/**
 * The smallest counterexamples the ranking properties (./ranking.test.ts) found on main, as named regression cases on
 * every driver, with the typo vocabulary not in memory and in memory. Each is a bug of main for the ranking core's
 * rewrite to fix (issue 52, item 5; ./known-on-main.ts says what each is): `it.fails` where main has it, so the suite is
 * green and a fix shows (the case then "fails": set the bug's `on` to `() => false` in ./known-on-main.ts). What each
 * case rests on (the pages each type finds, the steps that find them) is checked apart, in a plain test: an `it.fails`
 * that failed for another reason than its bug would otherwise pass unseen.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/databases.js';
import { CONFIG } from './corpus.js';
import { KNOWN_ON_MAIN, type KnownBugName } from './known-on-main.js';
import { MEMORIES, useIndexedSite, type Answer, type Asked, type IndexedSite } from './site.js';

const TYPES = [...CONFIG.types].sort();

describe.each(Object.entries(DRIVERS))('bugs of main the ranking properties found, on %s', (driver, open) => {
  const indexed = useIndexedSite(open);

  for (const memory of MEMORIES) {
    describe(`the typo vocabulary ${memory}`, () => {
      let site: IndexedSite;
      beforeAll(async () => {
        site = indexed();
        await site.enter(memory);
      });
      /** A bug's regression case: expected to fail where main has the bug. */
      const regression = (bug: KnownBugName, example: string, test: () => Promise<void>) =>
        (KNOWN_ON_MAIN[bug].on(driver, memory) ? it.fails : it)(`${KNOWN_ON_MAIN[bug].invariant}: ${example}`, test);

      /** Each type's count, as choosing the type finds it. */
      const chosenCounts = async (asked: Asked) => {
        const counts: Record<string, number> = {};
        for (const type of TYPES) {
          const n = (await site.whole({ ...asked, type })).results.length;
          if (n > 0) counts[type] = n;
        }
        return counts;
      };
      const typeFacet = async (asked: Asked) => {
        const { facets } = await site.search(asked, { limit: 10, offset: 0 }, 'type');
        return Object.fromEntries(facets!.type.map(({ value, count }) => [value, count]));
      };
      const what: Asked = { variant: 'fields', q: 'what', type: 'de', tags: [] };
      const hostOnly: Asked = { variant: 'fields', q: 'host only', type: 'fr', tags: [] };
      const olcation: Asked = { variant: 'fts5', q: 'olcation install fai', type: 'en', tags: [] };
      const abou: Asked = { variant: 'fts5', q: 'abou', tags: [] };
      const situes: Asked = { variant: 'fields', q: 'situés', tags: [] };

      it('the premises of the cases below hold', async () => {
        // `what` is in no German page, corrected in French, found as typed in English and Electron's docs.
        expect(await chosenCounts(what)).toEqual({ electron: 1, en: 3, fr: 1 });
        expect((await site.whole({ ...what, type: 'fr' })).results.map((r) => r.match)).toEqual(['typo']);
        // French widens `host only` to any of its words; English has enough pages holding both (the 8 it finds).
        expect((await site.whole(hostOnly)).results.every((r) => r.match === 'any')).toBe(true);
        expect(await chosenCounts(hostOnly)).toMatchObject({ en: 8 });
        // Five pages hold a typed word before the corrected ones come.
        const whole = await site.whole(olcation);
        expect(whole.suggestion).toBe('location install fai');
        expect(whole.results.map((r) => r.match)).toEqual(['any', 'any', 'any', 'any', 'any', 'typo', 'typo', 'typo']);
        // The searches past their first page answer without facets, and the facets are counted on the first page.
        for (const asked of [abou, situes]) {
          expect((await site.search(asked, { limit: 1, offset: 1 })).results).toHaveLength(1);
          expect((await site.search(asked, { limit: 1, offset: 0 }, 'type,tags')).facets!.type.length).toBeGreaterThan(1);
        }
      });

      regression('typeFacetJudgedInTheAskedType', 'what, type=de', async () => {
        expect(await typeFacet(what)).toEqual(await chosenCounts(what));
      });
      regression('typeFacetJudgedInTheAskedType', 'host only, type=fr', async () => {
        expect(await typeFacet(hostOnly)).toEqual(await chosenCounts(hostOnly));
      });

      regression('fts5SuggestionOnlyWithACorrectedResult', 'olcation install fai, type=en, limit=5', async () => {
        const suggestions = [];
        for (const offset of [0, 5]) suggestions.push((await site.search(olcation, { limit: 5, offset })).suggestion);
        expect(suggestions).toEqual(['location install fai', 'location install fai']);
      });

      /** The facets of a search at `limit=1&offset=1`: those of its first page. */
      const countedPastFirstPage = async (asked: Asked, facets: string) => {
        const reply = await site.request(asked, { limit: 1, offset: 1 }, facets);
        expect(reply.status, `${reply.query}: ${reply.logged}`).toBe(200);
        const first: Answer = await site.search(asked, { limit: 1, offset: 0 }, facets);
        expect(reply.body.facets).toEqual(first.facets);
      };
      regression('bothFacetsPastTheFirstPageNestTooDeep', 'abou, limit=1&offset=1&facets=type,tags', () => countedPastFirstPage(abou, 'type,tags'));
      regression('facetsPastTheFirstPageOnD1WithTheVocabularyInMemory', 'situés, limit=1&offset=1&facets=type', () => countedPastFirstPage(situes, 'type'));
    });
  }
});
