/**
 * One result per page family (issue 56 item 2, docs/ranking.md "One result per page family"): the same page for other
 * versions (the same file name under other folders, the same title, one type) is one result listing the others as
 * `variants`, shown by the page the query names, else by the one filed under the fewest folders; `distinct: false`
 * lists every page. At most two statements a search, and on D1 no more rows read than the titles of the pages that
 * share a file name. On every driver, pages from the real indexer.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { searchIndex, type SearchOptions } from '../../src/index.js';
import { DRIVERS } from '../helpers/databases.js';
import { countQueries, countRowsRead } from '../helpers/observe.js';
import { makeProject } from '../helpers/project.js';
import { indexedProject } from '../helpers/project-index.js';

const SETUP = 'Create the client with a link to your server, then wrap your app in its provider so that every component can call procedures.';
const project = makeProject({
  'docs/client/setup.md': `---\ntitle: Client setup\n---\n${SETUP}`,
  'docs/v10/client/setup.md': `---\ntitle: Client setup\n---\n${SETUP} The client setup of version 10 takes a links array.`,
  'docs/v9/client/setup.md': `---\ntitle: Client setup\n---\n${SETUP} In version 9 the client setup takes a url.`,
  // The same file name, another title: another page.
  'docs/server/setup.md': '---\ntitle: Server setup\n---\nCreate the server with its router, then serve it. The client calls it.',
  ...Object.fromEntries(['images', 'fonts', 'forms', 'testing', 'deploying', 'caching', 'styling', 'logging'].map((topic) => [`docs/${topic}.md`, `---\ntitle: ${topic}\n---\nAbout ${topic}.`])),
});
const options = (distinct?: boolean): SearchOptions => ({
  database: 'families',
  sources: [{ dir: 'docs', type: 'docs', url: '/docs/:slug' }],
  ...(distinct === undefined ? {} : { distinct }),
});
const FAMILY = ['/docs/client/setup', '/docs/v10/client/setup', '/docs/v9/client/setup'];
afterAll(() => project.cleanup());

describe.each(Object.entries(DRIVERS))('page families: %s', (name, open) => {
  const billed = name.startsWith('D1');
  const index = indexedProject(open, options(), project.dir);

  /** A search with the statements it ran and the rows they read (D1 reports them; SQLite does not). */
  const search = async (q: string, distinct?: boolean) => {
    let rows = 0;
    const counted = countQueries(countRowsRead(index.db(), (n) => (rows += n)));
    const results = await searchIndex(options(distinct), { db: counted.db, q });
    return { results, urls: results.map((r) => r.url), statements: counted.count(), rows };
  };

  it('answers a family once, by the page under the fewest folders, listing the others as variants', async () => {
    const { results, urls } = await search('client setup');
    expect(urls.filter((u) => FAMILY.includes(u))).toEqual(['/docs/client/setup']);
    const shown = results.find((r) => r.url === '/docs/client/setup')!;
    expect(shown.variants?.map((v) => v.url).sort()).toEqual(['/docs/v10/client/setup', '/docs/v9/client/setup']);
    expect(shown.variants?.every((v) => v.title === 'Client setup')).toBe(true);
    // Another title under the same file name is a page of its own, with no variants.
    expect(results.find((r) => r.url === '/docs/server/setup')?.variants).toBeUndefined();
  });

  it('shows the family by the page whose folders the query names', async () => {
    const { results, urls } = await search('client setup v9');
    expect(urls.filter((u) => FAMILY.includes(u))).toEqual(['/docs/v9/client/setup']);
    expect(results[urls.indexOf('/docs/v9/client/setup')]!.variants?.map((v) => v.url)).toContain('/docs/client/setup');
  });

  it('lists every page with distinct: false', async () => {
    const { results, urls } = await search('client setup', false);
    expect(urls.filter((u) => FAMILY.includes(u)).sort()).toEqual([...FAMILY].sort());
    expect(results.every((r) => r.variants === undefined)).toBe(true);
  });

  it('costs no statement more, and on D1 no more rows than the titles of the pages sharing a file name', async () => {
    await search('client setup');
    const on = await search('client setup');
    const off = await search('client setup', false);
    expect(on.statements).toBeLessThanOrEqual(2);
    expect(on.statements).toBe(off.statements);
    expect(on.rows > 0).toBe(billed);
    // Four pages share the file name `setup`: a title each.
    expect(on.rows).toBeLessThanOrEqual(off.rows + 4);
  });
});
