/** The words `site-search/ui/highlight` marks: at a word's start, any ending, case-insensitive; anywhere in CJK. */
import { describe, expect, it } from 'vitest';
import { MAX_HIGHLIGHT_CHARS, MAX_HIGHLIGHT_WORDS, wordsPattern } from '../../src/ui/highlight.js';

const matches = (query: string, text: string) => [...text.matchAll(wordsPattern(query)!)].map((m) => m[0]);

describe('wordsPattern', () => {
  it('matches each word at the start of a word, with its endings, in any case', () => {
    expect(matches('rivers', 'River otters share quiet rivers; a riverbank. Derivers')).toEqual(['River', 'rivers', 'riverbank']);
    expect(matches('Otter den', 'An otter’s den, otters, dens.')).toEqual(['otter', 'den', 'otters', 'dens']);
  });

  it('escapes what the reader typed and ignores one-letter words and operators', () => {
    expect(matches('c++ (a) "kelp" k.p', 'c++ in kelp, kxp k.p')).toEqual(['kelp', 'k.p']);
    expect(matches('node.js', 'nodexjs and node.js')).toEqual(['node.js']);
    expect(wordsPattern('a -')).toBeUndefined();
    expect(wordsPattern('')).toBeUndefined();
  });

  it('matches Chinese and Japanese words inside a run of text', () => {
    expect(matches('水獭', '欧亚水獭生活在河流中')).toEqual(['水獭']);
  });

  it('matches accented and non-Latin words whole', () => {
    expect(matches('rivière', 'La Rivière et les rivières')).toEqual(['Rivière', 'rivières']);
    expect(matches('выдра', 'Выдра и выдрам, не выдры')).toEqual(['Выдра', 'выдрам']);
  });

  // Issue 44, item 5: `?highlight=` is anyone's to write; 1,000 words made a pattern that took 0.56 s a page, 50,000 one
  // that did not compile.
  it(`reads at most ${MAX_HIGHLIGHT_WORDS} words and ${MAX_HIGHLIGHT_CHARS} characters of any list`, () => {
    const alternatives = (pattern: RegExp) => pattern.source.split('|').length;
    for (const n of [1_000, 10_000, 50_000]) {
      const many = Array.from({ length: n }, (_, i) => `w${i.toString(36)}x`).join(' ');
      const pattern = wordsPattern(`kelp ${many}`)!;
      expect(alternatives(pattern)).toBe(MAX_HIGHLIGHT_WORDS);
      // The first words are the ones kept: the searched words come first in a link the box made.
      expect('Sea otters rest in kelp.'.match(pattern)?.[0]).toBe('kelp');
    }
    const long = wordsPattern(`${'a'.repeat(2_000)} kelp`)!;
    expect(long.source.length).toBeLessThan(MAX_HIGHLIGHT_CHARS + 100);
    expect('kelp'.match(long)).toBeNull();
    // A cut keeps whole characters: never half of a surrogate pair.
    for (const text of [`${'x'.repeat(MAX_HIGHLIGHT_CHARS)}🦦`, '🦦'.repeat(MAX_HIGHLIGHT_CHARS), `x${'🦦'.repeat(MAX_HIGHLIGHT_CHARS)}`]) {
      const source = wordsPattern(text)!.source;
      expect(source).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
      expect([...source.replace(/^.*?\)/, '').replace(/\[.*$/, '')].length).toBe(MAX_HIGHLIGHT_CHARS);
    }
  });
});

