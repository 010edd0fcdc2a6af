/**
 * A query without a type, on a site of several types, is the union of its searches in each type (issue 44, item 1:
 * `type=` only narrows). Where a word is in one type's pages and corrected in another's, the pages that hold it as
 * typed come first, and the answer suggests a correction only when its best result was found through one: a reader who
 * typed a word the site has is not told they misspelled it (docs/decisions.md, "Filters only narrow"). On every driver,
 * with the vocabulary read by the statement and held in memory, for both rankings; the pages are built by the real
 * indexer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig, type SearchDatabase } from '../../src/index.js';
import { buildIndex, writeIndex } from '../../src/indexer/index.js';
import { normalizeSearchInput } from '../../src/search/query.js';
import { forgetKnownIndexes as forgetTypoIndexes, knownIndex, latestKnownIndex as latestTypoIndex } from '../../src/search/known-index.js';
import { asDeployed } from '../helpers/deployed-search.js';
import { DRIVERS, type TestDatabase } from '../helpers/databases.js';
import { makeProject } from '../helpers/project.js';

// `kelp` is in the docs, only `help` in the blog; `rivers` is in the docs, only `river` in the blog; `penguins` in the
// blog, only `penguin` in the docs. The last two share their stem (the index stems English), so the strict step of
// `ranking: 'fts5'` finds both spellings.
const project = makeProject({
  'docs/kelp.md': '---\ntitle: Kelp forests\n---\nSea otters float in kelp along rocky coasts.',
  'docs/coasts.md': '---\ntitle: Coastal waters\n---\nA raft of otters wraps itself in kelp to sleep.',
  'blog/volunteer.md': '---\ntitle: Volunteers wanted\ndate: 2026-03-01\n---\nWe need help with the count: help us count otters.',
  'docs/habitat.md': '---\ntitle: Habitat\n---\nRiver otters share quiet rivers with beaver dams and reed beds.',
  'docs/conservation.md': '---\ntitle: Conservation status\n---\nThe Eurasian otter recovered once rivers were cleaned.',
  'docs/intro.md': '---\ntitle: Introduction\n---\nWelcome to the documentation of the penguin tracker.',
  'blog/spring-count.md': '---\ntitle: Spring river count\ndate: 2026-04-12\n---\nVolunteers counted forty otters along the river, the river of a decade.',
  'blog/hello.md': '---\ntitle: Hello penguins\ndate: 2026-01-02\n---\nFirst post about penguins.',
});
const NOW = new Date('2026-11-21T12:00:00Z');
afterAll(() => project.cleanup());

describe.each(Object.entries(DRIVERS))('typed pages first without a type: %s', (_name, open) => {
  let handle: TestDatabase;
  let db: SearchDatabase;

  beforeAll(async () => {
    handle = await open();
    db = handle.db;
    const config = resolveConfig({ database: 'typed-first', sources: [{ dir: 'docs', type: 'doc', url: '/docs/:slug' }, { dir: 'blog', type: 'post', url: '/blog/:slug' }] });
    await writeIndex(db, config, (await buildIndex(config, { cwd: project.dir })).documents);
  }, 60_000);
  afterAll(() => handle.close());

  for (const ranking of ['fields', 'fts5'] as const) {
    for (const memory of [false, true]) {
      describe(`ranking ${ranking}, the vocabulary ${memory ? 'in memory' : 'read by the statement'}`, () => {
        const config = resolveConfig({ database: 'typed-first', ranking, sources: [{ dir: 'docs', type: 'doc', url: '/docs/:slug' }, { dir: 'blog', type: 'post', url: '/blog/:slug' }] });
        const search = (q: string, extra: { type?: string; offset?: number; limit?: number } = {}) => asDeployed(config, db, normalizeSearchInput(config, { q, ...extra }), NOW);

        beforeAll(async () => {
          forgetTypoIndexes();
          if (!memory) return;
          await search('otter');
          for (let i = 0; i < 400 && !latestTypoIndex(); i++) await new Promise((r) => setTimeout(r, 25));
          expect(latestTypoIndex()).toBeDefined();
        });
        afterAll(() => forgetTypoIndexes());

        it.each([
          ['kelp', 'doc', 'post', false],
          ['help', 'post', 'doc', false],
          ['rivers', 'doc', 'post', true],
          ['penguins', 'post', 'doc', true],
        ])('%s: the pages of the type that holds it as typed come first, then the corrected type, with no suggestion', async (q, typed, corrected, stemmed) => {
          const { results, suggestion } = await search(q);
          expect(suggestion).toBeUndefined();
          const types = results.map((r) => r.type);
          expect(types.filter((t) => t === typed)).toHaveLength((await search(q, { type: typed })).results.length);
          // Scores stay in order, as the box and the endpoint's callers sort by them.
          const scores = results.map((r) => r.score);
          expect(scores).toEqual([...scores].sort((a, b) => a - b));
          const others = (await search(q, { type: corrected })).results.length;
          if (stemmed && ranking === 'fts5') {
            // The strict step of the literal ranking finds the other spelling of the stem as typed: both types answer
            // in one tier, in score order (above), every page of each type as `type=` finds it, none of them corrected.
            expect(new Set(types)).toEqual(new Set([typed, corrected]));
            expect(types.filter((t) => t === corrected)).toHaveLength(others);
            expect(results.map((r) => r.match)).toEqual(results.map(() => 'all'));
            return;
          }
          expect(types[0]).toBe(typed);
          expect(types.filter((t) => t === corrected)).toHaveLength(others);
          // Both types answer (the union: `type=` only narrows), every typed page before the first corrected one.
          expect(types.indexOf(corrected)).toBeGreaterThan(types.lastIndexOf(typed));
          expect(results.filter((r) => r.type === typed).every((r) => r.match !== 'typo')).toBe(true);
          if (!stemmed) expect(results.filter((r) => r.type === corrected).map((r) => r.match)).toEqual(results.filter((r) => r.type === corrected).map(() => 'typo'));
        });

        it('pages through the same order at any limit', async () => {
          const whole = (await search('rivers', { limit: 10 })).results.map((r) => r.url);
          const paged = [...(await search('rivers', { limit: 2 })).results, ...(await search('rivers', { limit: 2, offset: 2 })).results].map((r) => r.url);
          expect(paged).toEqual(whole.slice(0, 4));
        });

        it('suggests the correction when every type was corrected', async () => {
          expect((await search('kelpz')).suggestion).toBe('kelp');
        });
      });
    }
  }
});
