/**
 * Golden tests: the extracted text of real astro-docs pages, compared with reviewed expectations in `golden/`.
 *
 * The pages were picked for the constructs they exercise; each golden was read against its source, not just snapshotted.
 * Goldens are wrapped at word boundaries so a failure shows a readable line diff; the extractor's output itself is one
 * line. After an intended change, rewrite them with `UPDATE_GOLDEN=1 npx vitest run test/indexer/text-golden.test.ts`
 * and review the diff.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SAMPLE_CORPUS } from '../helpers/corpus.js';
import { markdownToText, type TextWarning } from '../../src/indexer/text.js';

// The golden pages are all in the in-repo sample, so this runs the same with or without ../shared.
const CORPUS = pathToFileURL(SAMPLE_CORPUS);
const GOLDEN = new URL('./golden/', import.meta.url);
const UPDATE = process.env.UPDATE_GOLDEN === '1';
const WIDTH = 120;

/** Corpus page → what it exercises. */
const PAGES: Record<string, string> = {
  'en/install-and-setup.mdx': '<Steps>, <PackageManagerTabs>/<Fragment>, admonitions inside lists, fences with # and ---',
  'en/tutorial/4-layouts/2.mdx': 'tutorial components, <details>, fences opened on list-item lines containing ---',
  'en/guides/syntax-highlighting.mdx': '6-backtick fence around ```, escaped backticks, <Code /> in headings',
  'en/guides/deploy/azion.mdx': 'nested lists, bold labels, \\+ escape, admonition inside a list item',
  'en/guides/integrations-guide/alpinejs.mdx': 'reference links and definitions, * lists',
  'en/reference/errors/invalid-rewrite404.mdx': 'frontmatter with # comment lines, :::caution[…], blockquote',
  'en/reference/renderer-reference.mdx': '<p> blocks, <code> with <a href> and \\< escapes, <Since />',
  'zh-cn/reference/cli-reference.mdx': 'a table, :::note, zh-cn prose with inline code, # comments in fenced code',
  'zh-cn/guides/deploy/clever-cloud.mdx': '<Tabs>/<TabItem> inside nested list items, :::tip[…]',
  'ko/guides/integrations-guide/svelte.mdx': 'Korean prose, reference links, emoji list items',
  'fr/guides/migrate-to-astro/from-hugo.mdx': 'French prose, <LinkCard> attributes, indented <PackageManagerTabs>',
  'de/guides/deploy/heroku.mdx': '&shy; inside a word, # comments in fenced code inside <Steps>',
  'de/basics/layouts.mdx': '{/* … */} comment in prose, layouts code with --- fences',
};

/** Greedy word wrap; joining the lines with single spaces gives back the input exactly. */
function wrap(text: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  lines.push(line);
  return `${lines.join('\n')}\n`;
}

describe('markdownToText golden pages', () => {
  for (const [page, exercises] of Object.entries(PAGES)) {
    it(`${page}: ${exercises}`, () => {
      const source = readFileSync(new URL(page, CORPUS), 'utf8');
      const warnings: TextWarning[] = [];
      const actual = wrap(markdownToText(source, { onWarning: (w) => warnings.push(w) }));
      const goldenFile = new URL(`${page.replace(/\.mdx$/, '').replaceAll('/', '__')}.txt`, GOLDEN);

      if (UPDATE) writeFileSync(goldenFile, actual);
      expect(existsSync(goldenFile), `missing ${goldenFile.pathname}: run with UPDATE_GOLDEN=1`).toBe(true);
      expect(warnings).toEqual([]);
      expect(actual).toBe(readFileSync(goldenFile, 'utf8'));
    });
  }
});
