import { describe, expect, it } from 'vitest';
import { foldWord } from '../../src/text/fold.js';

describe('foldWord', () => {
  it('lowercases and removes accents, as the tokenizer compares words', () => {
    expect(foldWord('Déploiement ÉCHOUE')).toBe('deploiement echoue');
    expect(foldWord('Straße')).toBe('straße');
    expect(foldWord('ASTRO')).toBe('astro');
    expect(foldWord('Tiếng Việt')).toBe('tieng viet');
    // An accent typed as a separate combining mark.
    expect(foldWord('cafe\u0301')).toBe('cafe');
  });

  it('keeps Hangul syllables whole instead of leaving them split into jamo', () => {
    expect(foldWord('검색')).toBe('검색');
    expect(foldWord('검색').length).toBe(2);
  });
});
