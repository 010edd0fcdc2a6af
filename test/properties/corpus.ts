/**
 * The small multilingual site the ranking properties run on: real docs pages in four types, two of them English on
 * different subjects (Astro's guides and Electron's API reference) and two other languages (Astro's French and German
 * pages), so a word is judged in each type's own vocabulary. Small enough (28 pages) that every answer fits in one page
 * and can be paged through at `limit=1`. Every page is carried by this repository (test/fixtures, MIT): the test needs
 * nothing beside it.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveConfig, type SearchOptions } from '../../src/index.js';
import { buildIndex, type IndexDocument } from '../../src/indexer/index.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
const ASTRO = join(FIXTURES, 'astro-docs-sample');
const ELECTRON = join(FIXTURES, 'electron-docs/en');

/** The pages taken from the folders whose other pages are left out (every French and German page of the sample is in). */
const CHOSEN = new Set([
  ...['getting-started', 'install-and-setup', 'basics/astro-pages', 'basics/astro-components', 'basics/layouts', 'guides/configuring-astro', 'guides/data-fetching', 'guides/client-side-scripts', 'guides/imports', 'guides/caching'].map((p) => `/en/${p}`),
  ...['api/shell', 'api/dock', 'api/command-line', 'api/parent-port', 'api/structures/cookie', 'tray', 'context-menu'].map((p) => `/electron/${p}`),
]);

/**
 * The tags pages are given, each on several pages of several types: one with letters outside ASCII, and `api`, a
 * prefix of `api-reference` (a tag is matched whole). Few enough that the tag facet reports every value (it keeps 20).
 */
export const TAGS = ['api', 'api-reference', 'guide', 'début', 'setup'] as const;

/** A tag's pages, by the page's position in the corpus: overlapping so that every pair of tags shares some pages. */
const TAGGED_AT: Record<(typeof TAGS)[number], (i: number) => boolean> = {
  api: (i) => i % 2 === 0,
  'api-reference': (i) => i % 3 === 0,
  guide: (i) => i % 4 === 1,
  début: (i) => i % 5 < 2,
  setup: (i) => i % 7 === 3,
};

/**
 * The options the properties search with: every result reachable by paging at `limit=1` (`maxOffset`), and any answer
 * of the corpus in one page (`maxLimit`), which the paged answers are compared with.
 */
export const OPTIONS: SearchOptions = {
  database: 'ranking-properties',
  sources: [
    { dir: join(ASTRO, 'en'), type: 'en', url: '/en/:slug' },
    { dir: join(ASTRO, 'fr'), type: 'fr', url: '/fr/:slug' },
    { dir: join(ASTRO, 'de'), type: 'de', url: '/de/:slug' },
    { dir: ELECTRON, type: 'electron', url: '/electron/:slug' },
  ],
  maxLimit: 50,
  maxOffset: 100,
  // Room for five words with a filler phrase; the terms past maxTerms are dropped, as for any query.
  maxQueryLength: 200,
};

export const CONFIG = resolveConfig(OPTIONS);

/** The corpus's pages as the indexer builds them, each with its tags: built once per test file, for every driver. */
export function corpusPages(): Promise<IndexDocument[]> {
  return (built ??= buildPages());
}
let built: Promise<IndexDocument[]> | undefined;

async function buildPages(): Promise<IndexDocument[]> {
  const built = (await buildIndex(CONFIG)).documents;
  const pages = built.filter((d) => d.type === 'fr' || d.type === 'de' || CHOSEN.has(d.url));
  if (pages.length !== CHOSEN.size + built.filter((d) => d.type === 'fr' || d.type === 'de').length) {
    throw new Error(`a chosen page is missing from the fixtures: ${[...CHOSEN].filter((url) => !pages.some((p) => p.url === url)).join(', ')}`);
  }
  if (pages.length >= CONFIG.maxLimit) throw new Error(`the corpus must fit in one page of maxLimit (${CONFIG.maxLimit}) results`);
  // In URL order, whatever order the files were read in: a page's tags follow from its place.
  return pages.sort((a, b) => (a.url < b.url ? -1 : 1)).map((page, i) => ({ ...page, tags: TAGS.filter((tag) => TAGGED_AT[tag](i)).join(' ') }));
}
