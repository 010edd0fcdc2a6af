/**
 * Issue 53, item 2, end to end: every page of the astro-docs corpus (the in-repo sample when ../shared is absent,
 * test/helpers/corpus.ts, which says so) indexed into real SQLite, read back through the official MCP client's
 * `get_page`: each fenced code block of its source comes back byte for byte, and llms-full.txt holds each page as
 * `get_page` gives it, the same bytes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { glob } from 'tinyglobby';
import { describe, expect, it } from 'vitest';
import { corpusOptions } from '../../bench/labeled-queries.js';
import { parseDocument } from '../../src/indexer/document.js';
import { llmsFullTxt } from '../../src/llms/index.js';
import { createSearchHandler } from '../../src/index.js';
import { resolveConfig } from '../../src/options/config.js';
import { CORPUS, CORPUS_PAGES } from '../helpers/corpus.js';
import { fencedBlocks } from '../helpers/fenced-blocks.js';
import { servedIndex, textOf } from './helpers.js';

const config = resolveConfig({ ...corpusOptions(CORPUS), mcp: { name: 'Astro docs' } });
const served = servedIndex(config, 300_000);

/** Each page of the corpus: its source and the URL the index gives it. */
async function corpusPages(): Promise<{ file: string; source: string; url: string }[]> {
  const pages: { file: string; source: string; url: string }[] = [];
  for (const source of config.sources) {
    for (const relativePath of await glob('**/*.{md,mdx}', { cwd: source.dir! })) {
      const path = join(source.dir!, relativePath);
      const raw = readFileSync(path, 'utf8');
      const parsed = parseDocument({ path, relativePath, source }, raw, config);
      if (parsed.status === 'indexed') pages.push({ file: path, source: raw, url: parsed.document.url });
    }
  }
  return pages;
}

describe(`the pages as written, through get_page and llms-full.txt (${CORPUS_PAGES} pages)`, () => {
  it('get_page gives each fenced code block of every page byte for byte; llms-full.txt holds every page as get_page gives it', async () => {
    const { client, db, url } = served;
    const origin = new URL(url).origin;
    const pages = await corpusPages();
    expect(pages).toHaveLength(CORPUS_PAGES);
    let full = '';
    for await (const part of llmsFullTxt(config, db, { origin })) full += part;
    let blocks = 0;
    const missing: string[] = [];
    const notInFull: string[] = [];
    for (const page of pages) {
      const text = textOf(await client.callTool({ name: 'get_page', arguments: { url: `${origin}${page.url}` } }));
      expect(text.startsWith('# ')).toBe(true);
      if (!full.includes(`\n---\n\n${text}`)) notInFull.push(page.url);
      for (const block of fencedBlocks(page.source, page.file.endsWith('.mdx'))) {
        blocks++;
        if (!text.includes(block)) missing.push(`${page.url}: ${block.slice(0, 80)}`);
      }
    }
    expect(missing).toEqual([]);
    expect(notInFull).toEqual([]);
    expect(blocks).toBeGreaterThan(CORPUS_PAGES);
  }, 600_000);

  // Run last: it drops the table. A search statement that read it would fail on "no such table".
  it('no search of the endpoint reads the Markdown: with its table gone, it answers as before', async () => {
    const { db } = served;
    const endpoint = createSearchHandler(config, { db, cache: false });
    const queries = ['how do I call an action from a form', 'deploy to netlify', 'image component width', 'content collections schema', 'middleware locals'];
    const answers = async () => {
      const bodies: unknown[] = [];
      for (const q of queries) {
        const response = await endpoint(new Request(`https://docs.test/api/search?${new URLSearchParams({ q, limit: '5', facets: 'type' })}`));
        expect(response.status).toBe(200);
        bodies.push(await response.json());
      }
      return bodies;
    };
    const before = await answers();
    db.exec('DROP TABLE search_markdown');
    expect(await answers()).toEqual(before);
  });
});
