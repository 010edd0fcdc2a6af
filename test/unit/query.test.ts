/**
 * Query handling: \`toFtsQuery\` (SPEC.md's query rules 1–4: quotes to spaces, at most \`maxTerms\` terms, each quoted, the
 * last a prefix; listed for users in docs/http-api.md, "Query handling"), the request's parameters and limits, and the
 * corrections' expressions. SPEC.md is the project's specification, ../shared/SPEC.md beside the checkout in the project's CI.
 */
import { describe, expect, it } from 'vitest';
import { resolveConfig, SearchInputError } from '../../src/index.js';
import { normalizeSearchInput, toFtsQuery } from '../../src/search/query.js';
import { editDistance } from '../../src/text/edit-distance.js';
import { anyTermMatch, correctedTermsMatch, wordsOf } from '../../src/ranking/expressions.js';
import { chooseCorrections, completes } from '../../src/search/typos.js';

describe('toFtsQuery (SPEC query rules 1–4)', () => {
  it('quotes every term and adds * after the last one', () => {
    expect(toFtsQuery('content collections')).toBe('"content" "collections"*');
    expect(toFtsQuery('astro')).toBe('"astro"*');
  });

  it('rule 1: replaces double quotes, single quotes and backticks with spaces', () => {
    expect(toFtsQuery(`"exact phrase" it's \`code\``)).toBe('"exact" "phrase" "it" "s" "code"*');
  });

  it('rule 2: splits on any whitespace and caps at maxTerms', () => {
    expect(toFtsQuery('  a\tb\nc   d ')).toBe('"a" "b" "c" "d"*');
    expect(toFtsQuery('1 2 3 4 5 6 7 8 9 10')).toBe('"1" "2" "3" "4" "5" "6" "7" "8"*');
    expect(toFtsQuery('1 2 3 4', 2)).toBe('"1" "2"*');
  });

  it('rule 3: operators lose their meaning', () => {
    expect(toFtsQuery('cats OR dogs')).toBe('"cats" "OR" "dogs"*');
    expect(toFtsQuery('NOT AND NEAR(a b)')).toBe('"NOT" "AND" "NEAR(a" "b)"*');
    expect(toFtsQuery('-draft * col:term ^start')).toBe('"-draft" "*" "col:term" "^start"*');
  });

  it('treats control characters as separators (a NUL would break FTS5 parsing)', () => {
    expect(toFtsQuery('a\u0000b\u0007c')).toBe('"a" "b" "c"*');
    expect(toFtsQuery('\u0000')).toBe('');
  });

  it('returns an empty expression when nothing is left', () => {
    expect(toFtsQuery('')).toBe('');
    expect(toFtsQuery(` " ' \` `)).toBe('');
  });
});

describe('normalizeSearchInput (SPEC "GET {apiRoute}" parameters and limits)', () => {
  const config = resolveConfig({ database: 'd', sources: [
    { dir: 'a', type: 'doc', url: '/docs/:slug' },
    { dir: 'b', type: 'post', url: '/blog/:slug' },
  ] });
  const error = (raw: Parameters<typeof normalizeSearchInput>[1]) => {
    try {
      normalizeSearchInput(config, raw);
    } catch (e) {
      expect(e).toBeInstanceOf(SearchInputError);
      return (e as Error).message;
    }
    return undefined;
  };

  it('applies the defaults: limit 10, offset 0, no type, no tags, no facets', () => {
    expect(normalizeSearchInput(config, { q: 'Astro' })).toEqual({ q: 'astro', limit: 10, offset: 0, type: '', tags: [], facets: [] });
  });

  it('clamps limit to maxLimit instead of rejecting it', () => {
    expect(normalizeSearchInput(config, { q: 'x', limit: '1000' }).limit).toBe(25);
    expect(normalizeSearchInput(config, { q: 'x', limit: 7 }).limit).toBe(7);
  });

  it('rejects a non-integer or sub-1 limit with "Invalid limit"', () => {
    for (const limit of ['0', '-1', '1.5', '1e2', 'abc', '', '0x10', 2.5]) expect(error({ q: 'x', limit })).toBe('Invalid limit');
  });

  it('rejects a negative offset or one above maxOffset', () => {
    for (const offset of ['-1', '201', '1.5', 'x']) expect(error({ q: 'x', offset })).toBe('Invalid offset (0 to 200)');
    expect(normalizeSearchInput(config, { q: 'x', offset: '200' }).offset).toBe(200);
  });

  it('rejects an unknown type listing the valid ones; an empty type counts as absent', () => {
    expect(error({ q: 'x', type: 'page' })).toBe('Invalid type. One of: doc, post');
    expect(error({ q: 'x', type: 'DOC' })).toBe('Invalid type. One of: doc, post');
    expect(normalizeSearchInput(config, { q: 'x', type: '' }).type).toBe('');
    expect(normalizeSearchInput(config, { q: 'x', type: 'post' }).type).toBe('post');
  });

  it('rejects a query longer than maxQueryLength (characters, not UTF-16 units)', () => {
    expect(error({ q: 'a'.repeat(101) })).toBe('Query too long (max 100 characters)');
    expect(normalizeSearchInput(config, { q: 'a'.repeat(100) }).q).toHaveLength(100);
    expect(normalizeSearchInput(config, { q: '😀'.repeat(100) }).q).toBe('😀'.repeat(100));
  });

  it('trims and lowercases q, which is what results and the cache key use', () => {
    expect(normalizeSearchInput(config, { q: '  Content COLLECTIONS ' }).q).toBe('content collections');
  });
});

describe('the widening steps’ match expressions', () => {
  it('name each term once in the any-term step, the last only by prefix (a repeat counts twice in bm25)', () => {
    expect(anyTermMatch(['cache', 'invalidation'])).toBe('"cache" OR "invalidation"*');
    expect(anyTermMatch(['cache', 'cache'])).toBe('"cache" OR "cache"*');
    expect(anyTermMatch(['deploy', 'a'])).toBe('"deploy" OR "a"');
  });

  it('split a punctuated term into its words in the any-term step', () => {
    expect(anyTermMatch(['@astrojs/cloudflare:workers'])).toBe('"astrojs" OR "cloudflare" OR "workers"*');
    expect(anyTermMatch(['--flag', 'astro.config.mjs'])).toBe('"flag" OR "astro" OR "config" OR "mjs"*');
    expect(wordsOf('client:load')).toEqual(['client', 'load']);
    expect(wordsOf('--')).toEqual(['--']);
  });

  it('let a misspelled term stand for itself or its corrections beside the other terms', () => {
    const corrections = new Map([['cahce', ['cache']]]);
    expect(correctedTermsMatch(['cahce', 'invalidation'], corrections)).toBe('("cahce" OR "cache") AND "invalidation"*');
    expect(correctedTermsMatch(['redirect', 'cahce'], corrections)).toBe('"redirect" AND ("cahce"* OR "cache")');
  });
});

describe('editDistance (optimal string alignment)', () => {
  it('counts a swap of neighbouring letters as one edit, other edits as before', () => {
    expect(editDistance('cahce', 'cache')).toBe(1);
    expect(editDistance('wrokers', 'workers')).toBe(1);
    expect(editDistance('imgaez', 'images')).toBe(2);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('abc', 'ca')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
  });
});

describe('chooseCorrections', () => {
  it('completes the last word with the shortest vocabulary word it starts, where it would correct any other word', () => {
    const candidates = ['integrations', 'integrate', 'integral', 'reintegrate', 'integration'];
    // The last word, typed partway: completed (one word, so its stem counts once in bm25), accents and case aside.
    expect(chooseCorrections('integrat', candidates, true)).toEqual(['integrate']);
    expect(chooseCorrections('deploiem', ['Déploiement'], true)).toEqual(['Déploiement']);
    // The same word before the last: corrected within its edits (integrate and integral are one edit from it).
    expect(chooseCorrections('integrat', candidates, false)).toEqual(['integrate', 'integral']);
    // A last word that is itself a vocabulary word is neither completed nor corrected.
    expect(chooseCorrections('integral', candidates, true)).toEqual([]);
    // No word starts with it: corrected as any other word.
    expect(chooseCorrections('integarte', ['integrate', 'integrated'], true)).toEqual(['integrate', 'integrated']);
  });

  it('says which words complete a typed one', () => {
    expect(completes('integrat', 'integration')).toBe(true);
    expect(completes('Integrat', 'intégration')).toBe(true);
    expect(completes('integrat', 'integrat')).toBe(false);
    expect(completes('integrat', 'reintegration')).toBe(false);
  });
});
