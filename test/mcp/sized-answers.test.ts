/**
 * Issue 53, item 3: each `search` result carries its best section as its author wrote it, the answer within
 * `maxTokens` (default 3,000, at most 6,000, counted as src/mcp/sized-markdown.ts says), a code block whole or not at
 * all, `truncated` when the budget cut. Over the labeled queries of the astro-docs sample, through the official client.
 */
import { fromMarkdown } from 'mdast-util-from-markdown';
import { describe, expect, it } from 'vitest';
import { loadQueries } from '../../bench/labeled-queries.js';
import { cutMarkdown, estimateTokens } from '../../src/mcp/sized-markdown.js';
import { fencedBlocks } from '../helpers/fenced-blocks.js';
import { sampleOptions, servedIndex, textOf } from './helpers.js';

interface Answer {
  results: { url: string; page: string; markdown?: string; truncated?: true }[];
  nextOffset?: number;
  truncated?: true;
}

describe('cutMarkdown and estimateTokens', () => {
  it('counts a third of a token an ASCII character and a token any other', () => {
    expect(estimateTokens('abc')).toBe(1);
    expect(estimateTokens('abcd')).toBe(2);
    expect(estimateTokens('検索')).toBe(2);
    expect(estimateTokens('')).toBe(0);
  });

  it('keeps a code block whole or leaves it out, never cutting inside a fence', () => {
    const code = '```js\n' + 'const x = 1;\n'.repeat(40) + '```';
    const markdown = `Intro line.\n\n${code}\n\nAfter.`;
    expect(cutMarkdown(markdown, 10_000)).toEqual({ text: markdown, truncated: false });
    expect(cutMarkdown(markdown, 20)).toEqual({ text: 'Intro line.', truncated: true });
    // Cut below the whole: the code block is all there or not there.
    const cut = cutMarkdown(markdown, estimateTokens(markdown) - 1);
    expect(cut.truncated).toBe(true);
    expect([`Intro line.\n\n${code}`, 'Intro line.']).toContain(cut.text);
    // A fence inside a list item and a longer fence holding a shorter one.
    const nested = '1. Step:\n\n   ````md\n   ```js\n   x\n   ```\n   ````\n2. Next';
    const outer = cutMarkdown(nested, estimateTokens(nested) - 1);
    expect(['1. Step:', nested.slice(0, nested.indexOf('\n2. Next'))]).toContain(outer.text);
    expect(cutMarkdown(nested, 12).text).toBe('1. Step:');
  });
});

describe('the search tool\'s answers, sized', () => {
  const served = servedIndex(sampleOptions());
  // The queries only: their targets are pages of the full corpus, and what is checked here is the answers' size.
  const queries = loadQueries(new URL('../fixtures/astro-docs-queries.tsv', import.meta.url).pathname);

  it('carries the best section as written: the code block of the page, byte for byte, within the default 3,000 tokens', async () => {
    const found = await served.client.callTool({ name: 'search', arguments: { query: 'define an action with defineAction', type: 'en', limit: 5 } });
    const answer = found.structuredContent as Answer;
    const first = answer.results[0]!;
    expect(first.page).toMatch(/\/en\/guides\/actions$/);
    expect(first.markdown).toBeDefined();
    const page = textOf(await served.client.callTool({ name: 'get_page', arguments: { url: first.url } }));
    expect(page).toContain(first.markdown!.trim().split('\n').slice(0, 3).join('\n'));
    expect(textOf(found)).toContain('```markdown\n');
    expect(estimateTokens(textOf(found))).toBeLessThanOrEqual(3_000);
  });

  it('stays within maxTokens for every labeled query at every budget, each code block of a section whole and as the page has it', async () => {
    const pages = new Map<string, string>();
    let sections = 0;
    let cut = 0;
    for (const maxTokens of [500, 1_500, 3_000, 6_000]) {
      for (const q of queries) {
        const found = await served.client.callTool({ name: 'search', arguments: { query: q.query, type: q.lang, limit: 10, maxTokens } });
        expect(found.isError, textOf(found)).toBeFalsy();
        const answer = found.structuredContent as Answer;
        const text = textOf(found);
        // The first result's lines are kept whatever the budget; past them, the budget holds.
        if (answer.results.length > 1 || answer.results[0]?.markdown) expect(estimateTokens(text), `${q.query} at ${maxTokens}`).toBeLessThanOrEqual(maxTokens);
        if (answer.results.some((r) => r.truncated) || answer.results.length < 10) {
          if (answer.results.some((r) => r.truncated)) expect(answer.truncated).toBe(true);
        }
        for (const r of answer.results) {
          if (!r.markdown) continue;
          sections++;
          if (r.truncated) cut++;
          if (!pages.has(r.page)) pages.set(r.page, textOf(await served.client.callTool({ name: 'get_page', arguments: { url: r.page } })));
          const page = pages.get(r.page)!;
          // Every code block the section holds is closed, and is the page's, byte for byte.
          const blocks = fencedBlocks(r.markdown, false);
          expect(blocks.every((b) => /\n[ \t>]*(?:`{3,}|~{3,})[ \t]*$/.test(b)), r.markdown).toBe(true);
          for (const block of blocks) expect(page).toContain(block);
        }
        // The text is Markdown a reader parses to one list, an item per result.
        const tree = fromMarkdown(text) as { children: { type: string; ordered?: boolean; children?: unknown[] }[] };
        const lists = tree.children.filter((n) => n.type === 'list' && n.ordered);
        if (answer.results.length > 0) expect(lists.map((l) => l.children!.length)).toEqual([answer.results.length]);
      }
    }
    // The budgets did their work: sections given, and some cut at 500 tokens.
    expect(sections).toBeGreaterThan(queries.length);
    expect(cut).toBeGreaterThan(0);
  }, 300_000);

  it('a small budget says it cut, and leaves the results it had no room for to nextOffset', async () => {
    const found = await served.client.callTool({ name: 'search', arguments: { query: 'astro', limit: 10, maxTokens: 500 } });
    const answer = found.structuredContent as Answer;
    expect(answer.truncated).toBe(true);
    expect(estimateTokens(textOf(found))).toBeLessThanOrEqual(500);
    expect(answer.results.length).toBeLessThan(10);
    expect(answer.nextOffset).toBe(answer.results.length);
    const rest = (await served.client.callTool({ name: 'search', arguments: { query: 'astro', limit: 10, offset: answer.nextOffset, maxTokens: 6_000 } })).structuredContent as Answer;
    const whole = (await served.client.callTool({ name: 'search', arguments: { query: 'astro', limit: 20, maxTokens: 6_000 } })).structuredContent as Answer;
    // The two calls give the pages one call gives, in its order (as far as its own budget lets it list them).
    const paged = [...answer.results, ...rest.results].map((r) => r.url);
    const listed = whole.results.map((r) => r.url);
    const n = Math.min(paged.length, listed.length);
    expect(n).toBeGreaterThan(answer.results.length);
    expect(paged.slice(0, n)).toEqual(listed.slice(0, n));
  });

  it('refuses a budget out of bounds in its own words', async () => {
    for (const maxTokens of [499, 6_001, 1.5]) {
      const result = await served.client.callTool({ name: 'search', arguments: { query: 'astro', maxTokens } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe('Invalid maxTokens (500 to 6000)');
    }
  });
});
