/**
 * `recency: false` on a source (issue 23, cause 6): its dated pages rank as undated, so a dated page no longer
 * outranks the page that answers better; the date is still returned. On every driver, pages from the real indexer.
 * By default a dated page is boosted as SPEC.md's ranking says (the project's specification, ../shared/SPEC.md beside the checkout in the project's CI; docs/ranking.md for users).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig, searchIndex, type SearchDatabase, type SearchOptions } from '../../src/index.js';
import { buildIndex, writeIndex } from '../../src/indexer/index.js';
import { DRIVERS, type TestDatabase } from '../helpers/databases.js';
import { makeProject } from '../helpers/project.js';

const today = new Date();
const project = makeProject({
  // The reference page says "routing" more, in a shorter page: bm25 alone ranks it first.
  'docs/routing.md': '---\ntitle: Routing\n---\nRouting maps files to routes. Routing rules and dynamic routing.',
  'docs/changelog.md': `---\ntitle: Release notes\ndate: ${today.toISOString().slice(0, 10)}\n---\nThis release improves routing for large sites, with faster builds, new image options and fixes to the dev server.`,
});
const options = (recency?: boolean): SearchOptions => ({
  database: 'recency',
  sources: [{ dir: 'docs', type: 'docs', url: '/docs/:slug', ...(recency === undefined ? {} : { recency }) }],
  recency: { boost: 10 },
});
afterAll(() => project.cleanup());

describe.each(Object.entries(DRIVERS))('recency per source: %s', (_name, open) => {
  let handle: TestDatabase;
  let db: SearchDatabase;
  beforeAll(async () => {
    handle = await open();
    db = handle.db;
    const config = resolveConfig(options());
    await writeIndex(db, config, (await buildIndex(config, { cwd: project.dir })).documents);
  }, 60_000);
  afterAll(() => handle.close());

  const titles = async (recency?: boolean) =>
    (await searchIndex(options(recency), { db, q: 'routing', now: today })).map((r) => [r.title, r.date]);

  it('boosts a dated page by default (SPEC.md), and ranks it as undated with recency: false', async () => {
    const date = today.toISOString().slice(0, 10);
    expect(await titles()).toEqual([['Release notes', date], ['Routing', '']]);
    expect(await titles(false)).toEqual([['Routing', ''], ['Release notes', date]]);
  });
});
