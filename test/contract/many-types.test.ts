/**
 * A site of many types answers a query without a type, and its type counts, on every driver (issue 44, item 1: "every
 * facet count equals the number of results that choosing its value gives … on all three drivers"). D1 binds at most
 * 100 values per statement; SQLite 32,766. The pages are built by the real indexer; one type has `kelp`, the others
 * only `otters`.
 *
 * Observed on commit b008316, D1 in Miniflare only (`D1_ERROR: too many SQL variables`, a 500):
 * - `ranking: 'fts5'`, no type, 100 types, `q=kelpz`: the any-word step's `skipTypes` (every type where each word is
 *   misspelled) is bound one value per type (`t.value NOT IN (?, ?, …)`, search-plan.ts): 115 values.
 * - `facets=type` with 50 types (one value twice per type in `onePassParts`' `json_object`, facet-sql.ts) and with 100
 *   (`type IN (?, …)` per type): with a type asked too.
 *
 * Fixed after: a list of types is one JSON value bound (`json_each`), and the one-pass type counts (two values bound
 * per type) serve at most 30 types; 30 types are tested beside 50 and 100, and every source undated (`recency: false`,
 * a list of types in the recency expression).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearchHandler, resolveConfig, type SearchDatabase } from '../../src/index.js';
import { buildIndex, writeIndex } from '../../src/indexer/index.js';
import { forgetKnownIndexes as forgetTypoIndexes } from '../../src/search/known-index.js';
import { DRIVERS, type TestDatabase } from '../helpers/databases.js';
import { makeProject } from '../helpers/project.js';

const MOST = 100;
const files: Record<string, string> = {};
for (let i = 0; i < MOST; i++) files[`d${i}/page.md`] = `---\ntitle: Page ${i}\n---\n${i === 0 ? 'Sea otters float in kelp.' : `River otters swim in stream ${i}.`}`;
const project = makeProject(files);
afterAll(() => project.cleanup());

const sourcesOf = (n: number) => Array.from({ length: n }, (_, i) => ({ dir: `d${i}`, type: `t${i}`, url: `/d${i}/:slug` }));

interface Answer {
  results: { url: string; type: string }[];
  facets?: { type?: { value: string; count: number }[] };
}

describe.each(Object.entries(DRIVERS))('many types: %s', (_name, open) => {
  for (const n of [30, 50, MOST]) {
    describe(`${n} types`, () => {
      let handle: TestDatabase;
      let db: SearchDatabase;
      const options = { database: `many-${n}`, sources: sourcesOf(n) };

      beforeAll(async () => {
        handle = await open();
        db = handle.db;
        const config = resolveConfig(options);
        await writeIndex(db, config, (await buildIndex(config, { cwd: project.dir })).documents);
      }, 120_000);
      afterAll(() => handle.close());

      const ask = async (ranking: 'fields' | 'fts5', query: string): Promise<Answer> => {
        forgetTypoIndexes();
        const handler = createSearchHandler({ ...options, ranking }, { db, cache: false });
        const res = await handler(new Request(`https://example.com/api/search?${query}`));
        expect({ query, status: res.status }).toEqual({ query, status: 200 });
        return (await res.json()) as Answer;
      };

      it('answers when every type ranks undated (recency: false on each source)', async () => {
        forgetTypoIndexes();
        const undated = { ...options, sources: sourcesOf(n).map((source) => ({ ...source, recency: false })) };
        const res = await createSearchHandler(undated, { db, cache: false })(new Request('https://example.com/api/search?q=otters&limit=25'));
        expect(res.status).toBe(200);
        expect(((await res.json()) as Answer).results).toHaveLength(Math.min(n, 25));
      });

      for (const ranking of ['fields', 'fts5'] as const) {
        it(`ranking ${ranking}: a misspelling corrected in one type of ${n} is answered without a type`, async () => {
          const { results } = await ask(ranking, 'q=kelpz');
          expect(results.map((r) => r.type)).toEqual(['t0']);
        });

        it(`ranking ${ranking}: each of ${n} types is counted, with and without a type asked`, async () => {
          for (const within of ['', '&type=t1']) {
            const { facets } = await ask(ranking, `q=otters${within}&facets=type&limit=50`);
            expect({ within, types: facets?.type?.length }).toEqual({ within, types: Math.min(n, 20) });
          }
        });
      }
    });
  }
});
