import { describe, expect, it } from 'vitest';
import { segmentUnspaced } from '../../src/text/segment.js';

const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\u30FC]/u;

describe('segmentUnspaced', () => {
  it('splits Chinese and Japanese into words, also at the edges of a run', () => {
    expect(segmentUnspaced('部署到Vercel', '|')).toBe('部署|到|Vercel');
    expect(segmentUnspaced('コンポーネントを使う', '|')).toContain('|');
  });

  it('leaves text without those scripts as it is', () => {
    const text = 'Déploiement — 검색 «Astro» 🚀 café';
    expect(segmentUnspaced(text, '|')).toBe(text);
  });

  // The quick pre-test skips text with none of these scripts: it must not skip any character of them.
  it('separates every character of the unspaced scripts from a Latin letter before it', () => {
    const missed: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const ch = String.fromCodePoint(cp);
      if (UNSPACED.test(ch) && !segmentUnspaced(`a${ch}`, '|').startsWith('a|')) missed.push(cp.toString(16));
    }
    expect(missed).toEqual([]);
  });
});
