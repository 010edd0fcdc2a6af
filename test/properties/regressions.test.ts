/**
 * The smallest counterexamples the ranking properties (./ranking.test.ts) found in the ranking before issue 52, as
 * named regression cases on every driver, with the typo vocabulary not in memory and in memory:
 *
 * - the type facet of a search with `type=T` counted each other type's matches as the query is judged in T, not as
 *   choosing that type judges it (`what` with `type=de` counted no French page where `type=fr` found one; filler is
 *   no longer corrected, so the case is held by `require`, which has the same shape);
 * - with `ranking: 'fts5'` and a type, a page suggested the correction only when it held a result found through it;
 * - node:sqlite and better-sqlite3 answered 500 ("VIEWs and/or subqueries nested too deep") for a corrected search
 *   with both facets past its first page (`ranking: 'fts5'`, no type);
 * - D1 answered 500 ("too many terms in compound SELECT") for a corrected search with facets past its first page while
 *   the vocabulary was in memory.
 *
 * What each case rests on (the pages each type finds, the steps that find them) is checked apart, in a plain test.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/databases.js';
import { CONFIG } from './corpus.js';
import { MEMORIES, useIndexedSite, type Answer, type Asked, type IndexedSite } from './site.js';

const TYPES = [...CONFIG.types].sort();

describe.each(Object.entries(DRIVERS))('cases the ranking properties found, on %s', (_driver, open) => {
  const indexed = useIndexedSite(open);

  for (const memory of MEMORIES) {
    describe(`the typo vocabulary ${memory}`, () => {
      let site: IndexedSite;
      beforeAll(async () => {
        site = indexed();
        await site.enter(memory);
      });
      /** A regression case: what should hold, on the example found. */
      const regression = (invariant: string, example: string, test: () => Promise<void>) => it(`${invariant}: ${example}`, test);

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
      const requireDe: Asked = { variant: 'fields', q: 'require', type: 'de', tags: [] };
      const hostOnly: Asked = { variant: 'fields', q: 'host only', type: 'fr', tags: [] };
      const olcation: Asked = { variant: 'fts5', q: 'olcation install', type: 'en', tags: [] };
      const abou: Asked = { variant: 'fts5', q: 'abou', tags: [] };
      const situes: Asked = { variant: 'fields', q: 'situés', tags: [] };

      it('the premises of the cases below hold', async () => {
        // `require` is in no German page, corrected in French, found as typed in English and Electron's docs.
        expect(await chosenCounts(requireDe)).toEqual({ electron: 4, en: 5, fr: 1 });
        expect((await site.whole({ ...requireDe, type: 'fr' })).results.map((r) => r.match)).toEqual(['typo']);
        // French widens `host only` to any of its words; English has enough pages holding both (the 8 it finds).
        expect((await site.whole(hostOnly)).results.every((r) => r.match === 'any')).toBe(true);
        expect(await chosenCounts(hostOnly)).toMatchObject({ en: 8 });
        // The first result holds the corrected word; four pages holding a typed word only come before the next one that does.
        const whole = await site.whole(olcation);
        expect(whole.suggestion).toBe('location install');
        expect(whole.results.map((r) => r.match)).toEqual(['typo', 'any', 'any', 'any', 'any', 'typo', 'typo', 'typo']);
        // The searches past their first page answer without facets, and the facets are counted on the first page.
        for (const asked of [abou, situes]) {
          expect((await site.search(asked, { limit: 1, offset: 1 })).results).toHaveLength(1);
          expect((await site.search(asked, { limit: 1, offset: 0 }, 'type,tags')).facets!.type.length).toBeGreaterThan(1);
        }
      });

      regression('the type facet of a search with a type counts each other type as choosing that type finds', 'require, type=de', async () => {
        expect(await typeFacet(requireDe)).toEqual(await chosenCounts(requireDe));
      });
      regression('the type facet of a search with a type counts each other type as choosing that type finds', 'host only, type=fr', async () => {
        expect(await typeFacet(hostOnly)).toEqual(await chosenCounts(hostOnly));
      });

      regression('with ranking fts5 and a type, every page suggests what the whole answer suggests', 'olcation install, type=en, limit=1', async () => {
        const suggestions = [];
        for (let offset = 0; offset < 5; offset++) suggestions.push((await site.search(olcation, { limit: 1, offset })).suggestion);
        expect(suggestions).toEqual(Array(5).fill('location install'));
      });

      /** The facets of a search at `limit=1&offset=1`: those of its first page. */
      const countedPastFirstPage = async (asked: Asked, facets: string) => {
        const reply = await site.request(asked, { limit: 1, offset: 1 }, facets);
        expect(reply.status, `${reply.query}: ${reply.logged}`).toBe(200);
        const first: Answer = await site.search(asked, { limit: 1, offset: 0 }, facets);
        expect(reply.body.facets).toEqual(first.facets);
      };
      regression('with ranking fts5 and no type, a corrected search counts both facets past its first page', 'abou, limit=1&offset=1&facets=type,tags', () => countedPastFirstPage(abou, 'type,tags'));
      regression('with the vocabulary in memory and no type, a corrected search counts facets past its first page', 'situés, limit=1&offset=1&facets=type', () => countedPastFirstPage(situes, 'type'));
    });
  }
});
