import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS, CORPUS_PAGES } from '../helpers/corpus.js';
import { vocabularyOf, WordSet } from '../../src/indexer/vocabulary.js';
import type { IndexDocument } from '../../src/indexer/document.js';
import { isCorrectable } from '../../src/text/correctable-words.js';


/** The definition the hashed walk must match: every `/\p{L}{4,}/gu` match, lowercased, correctable, ≤ 40 long. */
function expected(texts: string[]): string[] {
  const words = texts.flatMap((text) => (text.match(/\p{L}{4,}/gu) ?? []).map((w) => w.toLowerCase()));
  return [...new Set(words.filter((w) => w.length <= 40 && isCorrectable(w)))].sort();
}

function found(texts: string[]): string[] {
  const set = new WordSet();
  for (const text of texts) set.addWordsOf(text);
  return [...set.words].sort();
}

describe('WordSet', () => {
  it('keeps what /\\p{L}{4,}/gu finds, lowercased and correctable, once each', () => {
    const samples = [
      'Deploy your Astro site to Vercel, Netlify or Cloudflare: npm run build && astro preview. DEPLOY Deploy deploy',
      'Déploiement échoué — vérifiez «astro.config.mjs» (ligne 42) et réessayez; DÉPLOIEMENT déploiement',
      'Straße_über-Größe x2 abc3defg ΑΘΗΝΑΣ Москва ΑΘΗΝΑΣ, İstanbul ǅemal',
      '部署到Vercel 検索エンジン검색엔진 test ーーーー データベース\u200Bdatabase',
      'end',
      'word',
      '𝒜𝒷𝒸𝒹 mixed𝒜bc tail😀tails 𠀀𠀁漢字abcd',
      `${'a'.repeat(40)} ${'b'.repeat(41)} ${'C'.repeat(41)}`,
    ];
    for (const text of samples) expect(found([text]), text).toEqual(expected([text]));
    expect(found(samples)).toEqual(expected(samples));
  });

  it('matches the regular expression on every page of the six-language corpus', () => {
    const files = (readdirSync(CORPUS, { recursive: true }) as string[]).filter((f) => /\.mdx?$/.test(f));
    expect(files.length).toBe(CORPUS_PAGES);
    const texts = files.map((f) => readFileSync(join(CORPUS, f), 'utf8'));
    const words = found(texts);
    expect(words).toEqual(expected(texts));
    // Every script the corpus is written in reached the vocabulary (not just ASCII).
    expect(words).toEqual(expect.arrayContaining(['déploiement', 'verwendung', '컴포넌트를']));
  });

  it('holds one entry per distinct run however often it repeats, across table growth', () => {
    const distinct = Array.from({ length: 5000 }, (_, i) => `word${String.fromCharCode(97 + (i % 26))}${i.toString(36).replace(/\d/g, (d) => 'klmnopqrst'[+d]!)}`);
    const text = [...distinct, ...distinct.map((w) => w.toUpperCase()), ...distinct].join(' ');
    expect(found([text])).toEqual([...new Set(distinct)].sort());
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
