/**
 * Issue 47 on real pages: readers' words are not the docs' words (the built-in docs vocabulary), and a result links to
 * a section only where that section holds more of the query than the page's introduction (issue 45, item 6). On the
 * Electron docs this repository carries (test/fixtures/electron-docs) and the Astro corpus (test/helpers/corpus.ts),
 * through the real indexer, on node:sqlite.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchIndex } from '../../src/index.js';
import { CORPUS } from '../helpers/corpus.js';
import { ELECTRON, indexOf } from '../helpers/corpus-index.js';

describe('the docs vocabulary, on the Electron docs', () => {
  const electron = indexOf(ELECTRON);
  beforeAll(() => electron.build(), 60_000);
  afterAll(() => electron.db.close());

  it('finds the page written in the docs\' words for the reader\'s: "env" the environment variables page', async () => {
    expect(await electron.urls('env var for logging')).toContain('/en/api/environment-variables');
    expect(await electron.urls('env var for logging', { vocabulary: false })).not.toContain('/en/api/environment-variables');
  });

  it('finds the performance guide for "speed up", which it never says', async () => {
    expect(await electron.urls('speed up my app')).toContain('/en/performance');
    expect(await electron.urls('speed up my app', { vocabulary: false })).not.toContain('/en/performance');
  });

  it('counts a docs word below the word typed, where a configured synonym counts as the word itself', async () => {
    const rank = (urls: string[]) => urls.indexOf('/en/performance');
    const builtIn = rank(await electron.urls('speed up my app', {}, 10));
    const configured = rank(await electron.urls('speed up my app', { synonyms: { speed: ['performance'] } }, 10));
    expect(configured).toBeGreaterThanOrEqual(0);
    expect(builtIn).toBeGreaterThan(configured);
  });

  it('lets a word given in synonyms replace its built-in entry', async () => {
    expect(await electron.urls('speed up my app', { synonyms: { speed: ['velocity'] } })).not.toContain('/en/performance');
  });
});

describe('section links, on the Astro docs', () => {
  const astro = indexOf(CORPUS);
  beforeAll(() => astro.build(), 120_000);
  afterAll(() => astro.db.close());
  const result = async (q: string, url: string) => (await searchIndex(astro.config, { db: astro.db, q, type: 'en', limit: 10 })).find((r) => r.url === url)!;

  it('links to the page when its title holds the query, not to a later heading holding one of its words', async () => {
    // "Data fetching": its "Fetch in Astro" section holds one of the two words the title holds.
    const hit = await result('data fetching', '/en/guides/data-fetching');
    expect(hit.section).toBeUndefined();
    expect(hit.sections?.length).toBeGreaterThan(0);
    expect((await result('install astro', '/en/install-and-setup')).section).toBeUndefined();
  });

  it('links to the section when it holds more of the query than the introduction', async () => {
    expect((await result('install astro manual setup', '/en/install-and-setup')).section?.url).toBe('/en/install-and-setup#manual-setup');
  });
});
