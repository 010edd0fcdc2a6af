import { describe, expect, it } from 'vitest';
import { versionSpelling, vocabularyFor } from '../../src/search/docs-vocabulary.js';

describe('the built-in docs vocabulary', () => {
  it('writes a version number the other way: with or without its v, a status code left alone', () => {
    expect(['7', 'v7', '22', '5.2', 'v5.2', '404', '1024', 'v8a', 'vite'].map(versionSpelling)).toEqual([
      'v7', '7', 'v22', 'v5.2', '5.2', undefined, undefined, undefined, undefined,
    ]);
  });

  it("gives each term its docs words, never a word typed, and none for a word synonyms replaces", () => {
    expect(vocabularyFor(['upgrade', 'astro', '5'], {})).toEqual(['migrate', 'migration', 'v5']);
    expect(vocabularyFor(['overridden', 'styles'], {})).toEqual(['override']);
    expect(vocabularyFor(['remove', 'delete'], {})).toEqual([]);
    expect(vocabularyFor(['upgrade'], { upgrade: ['update'] })).toEqual([]);
    expect(vocabularyFor(['show', 'host', 'make'], {})).toEqual([]);
  });
});
