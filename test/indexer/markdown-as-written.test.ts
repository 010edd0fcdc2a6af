/**
 * Issue 53, item 2: the page as its author wrote it, for assistants. Small cases for each rule, then the real pages:
 * every fenced code block the reference parsers find in a page's source (test/helpers/fenced-blocks.ts) is in
 * the stored Markdown byte for byte, over every page of the astro-docs corpus (the in-repo sample when ../shared is
 * absent, test/helpers/corpus.ts, which says so).
 */
import { readFileSync } from 'node:fs';
import { glob } from 'tinyglobby';
import { describe, expect, it } from 'vitest';
import { MARKDOWN_CUT_NOTE, MARKDOWN_MAX_CHARS, markdownAsWritten } from '../../src/indexer/markdown-as-written.js';
import { CORPUS, CORPUS_PAGES } from '../helpers/corpus.js';
import { fencedBlocks } from '../helpers/fenced-blocks.js';

const written = (source: string) => markdownAsWritten(source).markdown;

describe('markdownAsWritten', () => {
  it('keeps a fenced block byte for byte with its info string, inside a list and a quote too', () => {
    const code = '```ts title="astro.config.mjs" {2}\nconst a = `<Tabs>` + "{/* no */}";\n\n\n   <Steps />\n```';
    const listed = '1. Install:\n\n   ~~~~sh\n   npm i  # <Component>\n   ~~~~\n> ```js\n> import x from "y";\n> ```';
    expect(written(`${code}\n`)).toBe(code);
    expect(written(listed)).toBe(listed);
  });

  it('removes the frontmatter, ESM blocks, comments and component tags, keeping what the components hold', () => {
    const source = [
      '---',
      'title: Install',
      '---',
      "import { Steps, Tabs } from '@astrojs/starlight/components';",
      "import Since from '~/components/Since.astro';",
      '',
      '# Install <Since v="4.0" />',
      '',
      '{/* A note for editors */}',
      '<Steps>',
      '1. Run **this**: [the CLI](/cli/)',
      '</Steps>',
      '',
      '<!-- hidden',
      'over lines -->',
      '| a | b |',
      '|---|---|',
      '| `<X>` | <kbd>K</kbd> |',
      '',
      '<Tabs syncKey="pm"',
      '  label="x">',
      'Inside',
      '</Tabs>',
      '',
      'export const meta = { a: 1 };',
    ].join('\n');
    expect(written(source)).toBe(['# Install', '', '1. Run **this**: [the CLI](/cli/)', '', '| a | b |', '|---|---|', '| `<X>` | <kbd>K</kbd> |', '', 'Inside'].join('\n'));
  });

  it('gives the outline: level, text as shown, the anchor the built page has, where the line starts', () => {
    const { markdown, outline } = markdownAsWritten('# Guide\n\nIntro\n\n## Set *up*\n\n```md\n## Not a heading\n```\n\n## Set up\n\n- ## nor this\n\n### `astro add`\n');
    expect(outline).toEqual([
      [1, 'Guide', 'guide', 0],
      [2, 'Set up', 'set-up', markdown.indexOf('## Set *up*')],
      [2, 'Set up', 'set-up-1', markdown.indexOf('## Set up\n')],
      [3, 'astro add', 'astro-add', markdown.indexOf('### `astro add`')],
    ]);
  });

  it('cuts a page over the limit at a line end, never inside a code block, and says so', () => {
    const block = `\`\`\`js\n${'x'.repeat(1000)}\n\`\`\``;
    const long = Array.from({ length: Math.ceil(MARKDOWN_MAX_CHARS / 1000) + 5 }, (_, i) => `Paragraph ${i}.\n\n${block}`).join('\n\n');
    const { markdown, truncated } = markdownAsWritten(long);
    expect(truncated).toBe(true);
    expect(markdown.length).toBeLessThanOrEqual(MARKDOWN_MAX_CHARS + MARKDOWN_CUT_NOTE.length + 2);
    expect(markdown.endsWith(`\n\n${MARKDOWN_CUT_NOTE}`)).toBe(true);
    // Every fence opened is closed: the count of fence lines is even.
    expect(markdown.split('\n').filter((l) => l.startsWith('```')).length % 2).toBe(0);
    expect(markdownAsWritten(block).truncated).toBe(false);
  });
});

describe(`every page of the astro-docs corpus (${CORPUS_PAGES} pages)`, () => {
  it('holds each fenced code block of its source byte for byte', async () => {
    const files = await glob('**/*.{md,mdx}', { cwd: CORPUS, absolute: true });
    expect(files.length).toBe(CORPUS_PAGES);
    let blocks = 0;
    const missing: string[] = [];
    for (const file of files) {
      const source = readFileSync(file, 'utf8');
      const markdown = written(source);
      for (const block of fencedBlocks(source, file.endsWith('.mdx'))) {
        blocks++;
        if (!markdown.includes(block)) missing.push(`${file}: ${block.slice(0, 80)}`);
      }
    }
    expect(missing).toEqual([]);
    // The corpus is full of code: a parse that found none would pass the loop above for nothing.
    expect(blocks).toBeGreaterThan(CORPUS_PAGES);
  });
});
