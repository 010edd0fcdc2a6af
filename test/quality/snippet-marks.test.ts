/**
 * Snippets mark what matters (issue 56, item 4): on real pages, a question's filler words ("and", "with", "on", "how",
 * "to") are never marked, in the page's snippet (FTS5's `snippet()` over the statement's marked expression) or in a
 * section's (sections.ts), while its informative words are; filler is marked only when the query holds nothing else.
 * And a snippet never runs a heading into the text after it: the page's text ends each heading as a sentence.
 * The Astro sample this repository carries (test/fixtures/astro-docs-sample), through the real indexer, on node:sqlite.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isFiller } from '../../src/ranking/filler.js';
import type { SearchResult } from '../../src/index.js';
import { SAMPLE_CORPUS } from '../helpers/corpus.js';
import { indexOf } from '../helpers/corpus-index.js';

/** Every marked word of a result's snippets, the page's and its sections', lowercased. */
function markedWords(results: SearchResult[]): string[] {
  const snippets = results.flatMap((r) => [r.snippet, ...(r.sections ?? []).map((s) => s.snippet)]);
  return snippets.flatMap((s) => [...s.matchAll(/<mark>([^<]*)<\/mark>/g)].map((m) => m[1]!.toLowerCase()));
}

describe('snippet marks, on the Astro sample', () => {
  const astro = indexOf(SAMPLE_CORPUS);
  beforeAll(() => astro.build(), 60_000);
  afterAll(() => astro.db.close());
  const marked = async (q: string) => markedWords(await astro.search(q, { sections: 3 }, 10));

  it.each([
    'how do I deploy my site with azion and a custom domain',
    'add authentication to pages with a login form and sessions',
    'fetch data on the server and in components',
    'how to use layouts with markdown pages',
  ])('marks no filler word for %j, and marks its informative words', async (q) => {
    const words = await marked(q);
    expect(words.filter(isFiller)).toEqual([]);
    expect(words.length).toBeGreaterThan(0);
  });

  it('marks filler when the query holds nothing else', async () => {
    expect((await marked('with and')).filter(isFiller).length).toBeGreaterThan(0);
  });

  it('never runs a heading into the text after it', async () => {
    // "## Prerequisites" then "- **Node.js** - `v22.12.0` or higher": once "Prerequisites Node.js - v22.12.0".
    const [hit] = (await astro.search('prerequisites node.js version', {}, 10)).filter((r) => r.url === '/en/install-and-setup');
    expect(hit?.snippet).toContain('<mark>Prerequisites</mark>. <mark>Node.js</mark>');
  });
});
