/**
 * What a search makes of a long question (src/search/long-questions.ts, docs/ranking.md "Long questions"): up to
 * `maxTerms` words are searched as typed; beyond, the informative words; beyond `maxTerms` of those, the rarest, by
 * pages counted up to a bound that keeps the count's cost fixed whatever the question's length.
 */
import { describe, expect, it } from 'vitest';
import { COUNTED_PAGES, countBound, informativeWords, MAX_COUNTED_WORDS, planQuery, rarestWords } from '../../src/search/long-questions.js';

describe('planQuery', () => {
  it('searches up to maxTerms words as typed, filler and all', () => {
    expect(planQuery(['how', 'to', 'add', 'a', 'sitemap'], 8)).toEqual({ kind: 'typed', terms: ['how', 'to', 'add', 'a', 'sitemap'] });
  });

  it('searches the informative words of a longer question, each once, when there are at most maxTerms', () => {
    const words = 'how do i add a sitemap to my site and how do i add it to the build'.split(' ');
    expect(planQuery(words, 8)).toEqual({ kind: 'informative', terms: ['add', 'sitemap', 'site', 'build'] });
  });

  it('counts the first MAX_COUNTED_WORDS informative words when there are more than maxTerms', () => {
    const words = Array.from({ length: 50 }, (_, i) => `word${i}`);
    const plan = planQuery(words, 8);
    expect(plan.kind).toBe('rarest');
    expect(plan.kind === 'rarest' && plan.words).toEqual(words.slice(0, MAX_COUNTED_WORDS));
  });

  it('keeps a question of filler alone as its first maxTerms words, as before', () => {
    const words = 'how do i do this and that with it when it is on'.split(' ');
    expect(planQuery(words, 8)).toEqual({ kind: 'typed', terms: words.slice(0, 8) });
  });
});

describe('informativeWords', () => {
  it('leaves out filler and punctuation alone, keeps identifiers and numbers', () => {
    expect(informativeWords(['what', 'is', 'getStaticPaths()', '—', '?', 'in', 'v5', '404', 'the'])).toEqual(['getStaticPaths()', 'v5', '404']);
  });
});

describe('rarestWords', () => {
  const words = ['configure', 'astro', 'sitemap', 'integration', 'changefreq', 'priority', 'pages', 'output', 'server', 'build'];
  const counts = new Map([
    ['configure', 120], ['astro', 600], ['sitemap', 4], ['integration', 90], ['changefreq', 1],
    ['priority', 6], ['pages', 400], ['output', 60], ['server', 150], ['build', 200],
  ]);

  it('keeps the maxTerms rarest, in the question\'s order', () => {
    expect(rarestWords(words, counts, new Set(), 4)).toEqual(['sitemap', 'changefreq', 'priority', 'output']);
  });

  it('breaks ties by position, the earlier word first', () => {
    const tied = new Map(words.map((w) => [w, 5]));
    expect(rarestWords(words, tied, new Set(), 3)).toEqual(words.slice(0, 3));
  });

  it('leaves out a word no page holds, unless the vocabulary corrects it (then it is kept first)', () => {
    const withUnknown = new Map(counts).set('zzzz', 0).set('sitmap', 0);
    const asked = ['zzzz', 'sitmap', ...words];
    expect(rarestWords(asked, withUnknown, new Set(), 3)).toEqual(['sitemap', 'changefreq', 'priority']);
    expect(rarestWords(asked, withUnknown, new Set(['sitmap']), 3)).toEqual(['sitmap', 'sitemap', 'changefreq']);
  });
});

describe('countBound', () => {
  it('spreads COUNTED_PAGES over the words, never below what tells rare from common on a small site', () => {
    expect(countBound(10)).toBe(COUNTED_PAGES / 10);
    expect(countBound(MAX_COUNTED_WORDS) * MAX_COUNTED_WORDS).toBeLessThanOrEqual(COUNTED_PAGES);
    expect(countBound(1000)).toBe(20);
  });
});
