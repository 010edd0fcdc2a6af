import { describe, expect, it } from 'vitest';
import { forEachLetterRun, vocabularyOf } from '../../src/indexer/vocabulary.js';
import type { IndexDocument } from '../../src/indexer/document.js';

const runs = (text: string) => {
  const words: string[] = [];
  forEachLetterRun(text, (w) => words.push(w));
  return words;
};

describe('forEachLetterRun', () => {
  it('finds what /\\p{L}{4,}/gu finds in the lowercased text', () => {
    const samples = [
      'Deploy your Astro site to Vercel, Netlify or Cloudflare: npm run build && astro preview.',
      'Déploiement échoué — vérifiez «astro.config.mjs» (ligne 42) et réessayez',
      'Straße_über-Größe x2 abc3defg ΑΘΗΝΑ Москва',
      '部署到Vercel 検索エンジン검색엔진 test',
      'end',
      'word',
      '𝒜𝒷𝒸𝒹 mixed𝒜bc tail',
    ];
    for (const text of samples) expect(runs(text)).toEqual(text.toLowerCase().match(/\p{L}{4,}/gu) ?? []);
  });
});

describe('vocabularyOf', () => {
  it('keeps correctable words per document type, sorted, once each', () => {
    const doc = (type: string, content: string) => ({ title: 'Routing', description: '', tags: '', content, type }) as IndexDocument;
    expect(vocabularyOf([doc('en', 'Routing routes ROUTES 2024 abc 検索'), doc('fr', 'Déploiement')])).toEqual([
      { term: 'routes', type: 'en' },
      { term: 'routing', type: 'en' },
      { term: 'déploiement', type: 'fr' },
      { term: 'routing', type: 'fr' },
    ]);
  });
});
