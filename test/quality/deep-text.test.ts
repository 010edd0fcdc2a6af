/**
 * Deep answers (issue 23, cause 7): a long page is searched past `maxContentLength`, so what it says near its end is
 * found, with its section. On a real page of this repository's docs (14.6 KB), through the real indexer, on every driver.
 */
import { readFileSync } from 'node:fs';
import GithubSlugger from 'github-slugger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig, searchIndex, type SearchDatabase } from '../../src/index.js';
import { buildIndex, writeIndex } from '../../src/indexer/index.js';
import { DRIVERS, type TestDatabase } from '../helpers/databases.js';
import { makeProject } from '../helpers/project.js';

const page = readFileSync(new URL('../../docs/frameworks/workers.md', import.meta.url), 'utf8');
// The page's last heading (outside code blocks), read from the guide itself so that a section added to it moves the
// expectation with it, and its anchor as github-slugger writes it.
const headings = [...page.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{2,6} (.+)$/gm)].map((m) => m[1]!.trim());
const lastHeading = headings.at(-1)!;
const lastAnchor = `https://example.com/docs/workers#${new GithubSlugger().slug(lastHeading)}`;
// An edit at the very end of the page (in its last section), far past the 8,000 characters kept as its body.
const edited = `${page.trimEnd()}\n\nIf the quokkaflux warning appears, redeploy once.\n`;
const project = makeProject({ 'docs/workers.md': `---\ntitle: Cloudflare Workers\n---\n${edited}`, 'docs/other.md': '---\ntitle: Other\n---\nA short page.' });
const config = resolveConfig({ database: 'deep', sources: [{ dir: 'docs', type: 'doc', url: '/docs/:slug' }] });
afterAll(() => project.cleanup());

describe.each(Object.entries(DRIVERS))('deep text: %s', (_name, open) => {
  let handle: TestDatabase;
  let db: SearchDatabase;
  let body = '';
  beforeAll(async () => {
    handle = await open();
    db = handle.db;
    const { documents } = await buildIndex(config, { cwd: project.dir });
    body = documents.find((d) => d.url === '/docs/workers')!.content;
    await writeIndex(db, config, documents);
  }, 60_000);
  afterAll(() => handle.close());

  it('finds a word near the end of a long page and points at its section', async () => {
    expect(headings.length).toBeGreaterThan(5);
    expect(body.length).toBeLessThanOrEqual(config.maxContentLength);
    expect(body).not.toContain('quokkaflux');
    const [hit, ...rest] = await searchIndex(config, { db, q: 'quokkaflux', origin: 'https://example.com' });
    expect(rest).toEqual([]);
    expect(hit).toMatchObject({
      title: 'Cloudflare Workers',
      section: { heading: lastHeading, url: lastAnchor },
    });
    // The snippet is the body's (the text past it is searched, never returned): not empty, and nothing from the end.
    expect(hit!.snippet.length).toBeGreaterThan(0);
    expect(hit!.snippet).not.toContain('quokkaflux');
  });

  it('still returns the body snippet when the words are in the body', async () => {
    const [hit] = await searchIndex(config, { db, q: 'wrangler', limit: 1 });
    expect(hit!.title).toBe('Cloudflare Workers');
    expect(body).toContain('wrangler');
    expect(hit!.snippet).toContain('<mark>wrangler</mark>');
  });
});

// Every word searchable (issue 35, cause 4): with a body of 3,000 characters, the page's end lies far past the body
// and the as-much-again kept as written (6,000); the words there are kept once each, and still find the page and its
// section, whose entry lists them under it with a snippet that marks the word.
describe.each(Object.entries(DRIVERS))('every word of a long page: %s', (_name, open) => {
  const small = resolveConfig({ ...config, maxContentLength: 3_000 });
  let handle: TestDatabase;
  let db: SearchDatabase;
  beforeAll(async () => {
    handle = await open();
    db = handle.db;
    const { documents } = await buildIndex(small, { cwd: project.dir });
    const workers = documents.find((d) => d.url === '/docs/workers')!;
    expect(workers.content.length + (workers.more ?? '').length).toBeLessThan(edited.length / 2);
    await writeIndex(db, small, documents);
  }, 60_000);
  afterAll(() => handle.close());

  it('finds a word said only in the last section, far past what is kept as written, with that section', async () => {
    const [hit, ...rest] = await searchIndex(small, { db, q: 'quokkaflux', origin: 'https://example.com' });
    expect(rest).toEqual([]);
    expect(hit).toMatchObject({ title: 'Cloudflare Workers', section: { heading: lastHeading, url: lastAnchor } });
    expect(hit!.sections![0]!.heading).toBe(lastHeading);
  });
});
