/**
 * Golden tests: the extracted text of real astro-docs pages, compared with reviewed expectations in `golden/`.
 *
 * The pages were picked for the constructs they exercise; each golden was read against its source, not just snapshotted.
 * Goldens are wrapped at word boundaries so a failure shows a readable line diff; the extractor's output itself is one
 * line. Beside each golden, its `.why.md` says what was read against the source; a golden without one fails. After an
 * intended change, a failing golden shows its diff; rewrite one only after reading the new text against the source,
 * by name and with the reason (test/helpers/golden.ts):
 * `UPDATE_GOLDEN=overwrite GOLDEN_PAGE=<page> GOLDEN_REASON='<what you read>' npx vitest run test/indexer/text-golden.test.ts`.
 */
import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SAMPLE_CORPUS } from '../helpers/corpus.js';
import { goldenUpdate, MIN_REASON_LENGTH } from '../helpers/golden.js';
import { markdownToText, type TextWarning } from '../../src/indexer/text.js';

// The golden pages are all in the in-repo sample, so this runs the same with or without ../shared.
const CORPUS = pathToFileURL(SAMPLE_CORPUS);
const GOLDEN = new URL('./golden/', import.meta.url);
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

const goldenName = (page: string) => page.replace(/\.mdx$/, '').replaceAll('/', '__');

describe('markdownToText golden pages', () => {
  for (const [page, exercises] of Object.entries(PAGES)) {
    it(`${page}: ${exercises}`, () => {
      const source = readFileSync(new URL(page, CORPUS), 'utf8');
      const warnings: TextWarning[] = [];
      const actual = wrap(markdownToText(source, { onWarning: (w) => warnings.push(w) }));
      const goldenFile = new URL(`${goldenName(page)}.txt`, GOLDEN);

      const update = goldenUpdate(process.env, page);
      if (update.write) {
        writeFileSync(goldenFile, actual);
        appendFileSync(new URL(`${goldenName(page)}.why.md`, GOLDEN), `\nRewritten ${new Date().toISOString().slice(0, 10)}: ${update.reason}\n`);
      }
      expect(existsSync(goldenFile), `missing ${goldenFile.pathname}: ${update.write ? '' : update.hint}`).toBe(true);
      expect(warnings).toEqual([]);
      expect(actual, update.write ? undefined : update.hint).toBe(readFileSync(goldenFile, 'utf8'));
    });
  }

  it('every golden has the reason it is right beside it (its .why.md: what was read against the source), and every page its golden', () => {
    const files = readdirSync(GOLDEN);
    const goldens = files.filter((f) => f.endsWith('.txt')).map((f) => f.slice(0, -'.txt'.length));
    expect(goldens.sort()).toEqual(Object.keys(PAGES).map(goldenName).sort());
    for (const name of goldens) {
      const why = new URL(`${name}.why.md`, GOLDEN);
      expect(existsSync(why), `${name}.txt has no ${name}.why.md saying what was read against the source`).toBe(true);
      const reason = readFileSync(why, 'utf8');
      expect(reason, `${name}.why.md`).toMatch(/^Read against the source page in `test\/fixtures\/astro-docs-sample\//);
      expect(reason.trim().length, `${name}.why.md`).toBeGreaterThan(MIN_REASON_LENGTH);
    }
    // No reason left over for a golden that is gone.
    expect(files.filter((f) => f.endsWith('.why.md')).map((f) => f.slice(0, -'.why.md'.length)).sort()).toEqual(goldens.sort());
  });
});

// Issue 48, item 3: UPDATE_GOLDEN=1 wrote the test's own output and then compared it with itself.
describe('rewriting a golden', () => {
  const page = 'en/install-and-setup.mdx';
  it('never rewrites on UPDATE_GOLDEN=1 or any value but overwrite: the run compares, and the failure says how', () => {
    for (const value of [undefined, '', '1', 'true', 'yes']) {
      const update = goldenUpdate({ UPDATE_GOLDEN: value, GOLDEN_PAGE: page, GOLDEN_REASON: 'read the whole page against the source' }, page);
      expect(update, String(value)).toEqual({ write: false, hint: expect.stringContaining(`UPDATE_GOLDEN=overwrite GOLDEN_PAGE=${page} GOLDEN_REASON=`) });
    }
  });

  it('rewrites only the page named, and only with a reason', () => {
    const reason = 'read the Steps and PackageManagerTabs text against the source';
    expect(goldenUpdate({ UPDATE_GOLDEN: 'overwrite', GOLDEN_PAGE: page, GOLDEN_REASON: reason }, page)).toEqual({ write: true, reason });
    expect(goldenUpdate({ UPDATE_GOLDEN: 'overwrite', GOLDEN_PAGE: 'de/basics/layouts.mdx', GOLDEN_REASON: reason }, page).write).toBe(false);
    expect(goldenUpdate({ UPDATE_GOLDEN: 'overwrite', GOLDEN_REASON: reason }, page).write).toBe(false);
    for (const GOLDEN_REASON of [undefined, '', 'ok', '   looks right   ']) {
      expect(() => goldenUpdate({ UPDATE_GOLDEN: 'overwrite', GOLDEN_PAGE: page, GOLDEN_REASON }, page)).toThrow(/refusing to rewrite the golden of en\/install-and-setup\.mdx without GOLDEN_REASON/);
    }
  });
});
