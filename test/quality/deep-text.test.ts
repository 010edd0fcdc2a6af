/**
 * Deep answers (issue 23, cause 7): a long page is searched past `maxContentLength`, so what it says near its end is
 * found, with its section. On a real page of this repository's docs (14.6 KB), through the real indexer, on every driver.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig, searchIndex, type SearchDatabase } from '../../src/index.js';
import { buildIndex, writeIndex } from '../../src/indexer/index.js';
import { DRIVERS, type TestDatabase } from '../helpers/databases.js';
import { makeProject } from '../helpers/project.js';

const page = readFileSync(new URL('../../docs/frameworks/workers.md', import.meta.url), 'utf8');
// An edit at the very end of the page (its last section is "Troubleshooting"), far past the 8,000 characters kept as
// its body.
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
    expect(body.length).toBeLessThanOrEqual(config.maxContentLength);
    expect(body).not.toContain('quokkaflux');
    const [hit, ...rest] = await searchIndex(config, { db, q: 'quokkaflux', origin: 'https://example.com' });
    expect(rest).toEqual([]);
    expect(hit).toMatchObject({
      title: 'Cloudflare Workers',
      section: { heading: 'Troubleshooting', url: 'https://example.com/docs/workers#troubleshooting' },
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
