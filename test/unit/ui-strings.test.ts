/** The box's built-in translations: complete, with English's placeholders, and the closest one chosen for a tag. */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENGLISH, fill, isRightToLeft, translationFor } from '../../src/ui/strings.js';

const LOCALES = readdirSync(new URL('../../src/ui/locales/', import.meta.url)).map((f) => f.replace(/\.ts$/, ''));
const placeholders = (text: string) => [...text.matchAll(/\{\w+\}/g)].map((m) => m[0]).sort();

describe('built-in translations', () => {
  it('cover the languages Starlight ships UI strings in, and Arabic and Hebrew', () => {
    expect(LOCALES.sort()).toEqual(['ar', 'de', 'es', 'fr', 'he', 'it', 'ja', 'ko', 'pt-BR', 'ru', 'zh-CN', 'zh-TW']);
  });

  it.each(LOCALES)('%s: every string, translated, with the same placeholders as English', async (lang) => {
    const { default: strings } = await translationFor(lang)!();
    expect(Object.keys(strings).sort()).toEqual(Object.keys(ENGLISH).sort());
    for (const key of Object.keys(ENGLISH) as (keyof typeof ENGLISH)[]) {
      expect(strings[key], `${lang}.${key}`).not.toBe('');
      expect(placeholders(strings[key]), `${lang}.${key}`).toEqual(placeholders(ENGLISH[key]));
    }
    expect(strings.placeholder).not.toBe(ENGLISH.placeholder);
  });

  it('picks the closest one for a language tag', async () => {
    const placeholderFor = async (lang: string) => (await translationFor(lang)?.())?.default.placeholder;
    expect(await placeholderFor('fr-CA')).toBe('Rechercher');
    expect(await placeholderFor('pt')).toBe('Pesquisar');
    expect(await placeholderFor('pt-PT')).toBe('Pesquisar');
    expect(await placeholderFor('zh')).toBe('搜索');
    expect(await placeholderFor('zh-Hant-HK')).toBe('搜尋');
    expect(await placeholderFor('zh-TW')).toBe('搜尋');
    expect(await placeholderFor('DE-at')).toBe('Suchen');
    expect(translationFor('en-GB')).toBeUndefined();
    expect(translationFor('nl')).toBeUndefined();
  });

  it('knows right-to-left languages, and fills placeholders', () => {
    expect(['ar', 'he', 'fa-IR', 'ur'].map(isRightToLeft)).toEqual([true, true, true, true]);
    expect(['en', 'fr', 'hr', 'ja'].map(isRightToLeft)).toEqual([false, false, false, false]);
    expect(fill('{count} results for {query}', { count: '8+', query: 'otter' })).toBe('8+ results for otter');
  });
});
