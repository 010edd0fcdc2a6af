/**
 * Guides before release notes (issue 56 item 3, docs/ranking.md "Release notes and blog posts"): a post, a changelog or
 * a migration between versions that says the query's words more than the guide ranks below it, unless the query asks
 * what changed or names a version the docs are not filed under; a source's `kind` overrides what the page's URL and
 * title say. On every driver, pages from the real indexer.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { searchIndex, type SearchOptions, type SearchSource } from '../../src/index.js';
import { DRIVERS } from '../helpers/databases.js';
import { makeProject } from '../helpers/project.js';
import { indexedProject } from '../helpers/project-index.js';

// Each announcement says "routing" and "middleware" more than the guide, in fewer words: bm25 alone ranks it first.
const ANNOUNCED = 'routing middleware routing middleware routing middleware';
const project = makeProject({
  'docs/guides/routing.md': '---\ntitle: Handling requests\n---\nHow routing works. Add a middleware to a route: routing sends each request through it, then to the page that renders it, with its params and the locals other middleware set.',
  'docs/v2/guides/routing.md': '---\ntitle: Handling requests\n---\nRouting in version 2. Add a middleware to a route; routing in version 2 sends each request through the middleware chain before the page, with its params.',
  'blog/widget-3.md': `---\ntitle: Widget 3 is here\n---\n${ANNOUNCED}.`,
  'docs/changelog.md': `---\ntitle: Changelog\n---\n${ANNOUNCED}, fixed.`,
  'docs/migrate-from-v2-to-v3.md': `---\ntitle: Moving on\n---\n${ANNOUNCED}, renamed.`,
  'notes/widget-4.md': `---\ntitle: Announcing Widget 4\n---\n${ANNOUNCED}, faster.`,
  // Pages about other things, so that the query's words are rare, as on a site, and bm25 tells the pages apart.
  ...Object.fromEntries(['images', 'fonts', 'forms', 'testing', 'deploying', 'caching', 'styling', 'logging'].map((topic) => [`docs/${topic}.md`, `---\ntitle: ${topic}\n---\nAbout ${topic}: what it is for and how to configure it.`])),
});
const SOURCES: SearchSource[] = [
  { dir: 'docs', type: 'docs', url: '/docs/:slug' },
  { dir: 'blog', type: 'docs', url: '/blog/:slug' },
  { dir: 'notes', type: 'docs', url: '/notes/:slug' },
];
// The two routing guides are one page family (contract/page-families.test.ts): listed apart here, each ranked.
const options = (sources = SOURCES): SearchOptions => ({ database: 'release-notes', sources, distinct: false });
afterAll(() => project.cleanup());

describe.each(Object.entries(DRIVERS))('release notes after guides: %s', (_name, open) => {
  const index = indexedProject(open, options(), project.dir);
  const urls = async (q: string, sources?: SearchSource[]) => (await searchIndex(options(sources), { db: index.db(), q })).map((r) => r.url);
  const NEWS = ['/blog/widget-3', '/docs/changelog', '/docs/migrate-from-v2-to-v3', '/notes/widget-4'];

  it('ranks the guide above the post, the changelog, the migration and the announcement for a how-to question', async () => {
    const found = await urls('how do I use routing middleware');
    expect(found.slice(0, 2).sort()).toEqual(['/docs/guides/routing', '/docs/v2/guides/routing']);
    expect(found.slice(2).sort()).toEqual(NEWS);
  });

  it('ranks them as guides when every source says its pages are docs: they say the words more', async () => {
    const docs = SOURCES.map((s) => ({ ...s, kind: 'docs' as const }));
    const found = await urls('how do I use routing middleware', docs);
    expect(found.slice(0, 4).sort()).toEqual(NEWS);
  });

  it('ranks a page of a source of kind blog as a post, whatever its URL and title', async () => {
    const guidesAsBlog = SOURCES.map((s) => (s.dir === 'docs' ? { ...s, kind: 'blog' as const } : { ...s, kind: 'docs' as const }));
    const found = await urls('how do I use routing middleware', guidesAsBlog);
    expect(found.slice(0, 2).sort()).toEqual(['/blog/widget-3', '/notes/widget-4']);
  });

  it('ranks them as guides when the question asks what changed', async () => {
    const found = await urls('what changed in routing middleware, breaking');
    expect(NEWS).toContain(found[0]);
  });

  it('ranks them as guides when the question names a version the docs are not filed under, not one they are', async () => {
    expect(NEWS).toContain((await urls('how do I use routing middleware in v3'))[0]);
    expect((await urls('how do I use routing middleware in v2'))[0]).toBe('/docs/v2/guides/routing');
  });
});
