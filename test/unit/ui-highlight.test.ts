/** The words `site-search/ui/highlight` marks: at a word's start, any ending, case-insensitive; anywhere in CJK. */
import { describe, expect, it } from 'vitest';
import { wordsPattern } from '../../src/ui/highlight.js';

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
});
