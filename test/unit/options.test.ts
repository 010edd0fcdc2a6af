/**
 * \`resolveConfig\` and the options schema: every default of SPEC.md's "Options object" (the project's specification, ../shared/SPEC.md beside the checkout in the project's CI; every option and
 * default for users: docs/configuration.md), and every problem reported with its path.
 */
import { describe, expect, it } from 'vitest';
import { defineSearchOptions, resolveConfig, SiteSearchConfigError, type SearchOptions } from '../../src/index.js';
import { configProblems as problems } from '../helpers/config-problems.js';

const minimal: SearchOptions = { database: 'site-db', sources: [{ dir: 'src/content/blog', type: 'post', url: '/blog/:slug' }] };


describe('resolveConfig: options and defaults (SPEC "Options object")', () => {
  it('fills every default from SPEC.md', () => {
    const c = resolveConfig(minimal);
    expect(c).toMatchObject({
      database: 'site-db',
      binding: 'SEARCH_DB',
      site: '',
      maxContentLength: 8000,
      apiRoute: '/api/search',
      cors: true,
      cacheMaxAge: 300,
      maxLimit: 25,
      maxOffset: 200,
      maxQueryLength: 100,
      weights: { title: 10, description: 5, content: 1, tags: 3 },
      recency: { boost: 0.35, windowDays: 1095 },
      maxTerms: 8,
      snippetTokens: 24,
      sqlitePath: '.site-search/search.db',
      followLinksOutside: false,
      widen: true,
      ranking: 'fields',
      origin: '',
    });
    expect(c.sources[0]).toEqual({ dir: 'src/content/blog', type: 'post', url: '/blog/:slug', skipDirs: ['Templates'], emoji: '', recency: true });
  });

  it('derives the type allowlist from the sources, distinct and in order', () => {
    const c = resolveConfig({
      database: 'd',
      sources: [
        { dir: 'a', type: 'doc', url: '/docs/:slug' },
        { dir: 'b', type: 'post', url: '/blog/:slug' },
        { dir: 'c', type: 'doc', url: '/more/:slug' },
      ],
    });
    expect(c.types).toEqual(['doc', 'post']);
  });

  it('origin: an absolute http(s) URL, kept as its origin; anything else is a problem naming the option', () => {
    expect(resolveConfig({ ...minimal, origin: 'https://docs.example.com/base/?x=1' }).origin).toBe('https://docs.example.com');
    expect(resolveConfig({ ...minimal, origin: 'http://localhost:4321' }).origin).toBe('http://localhost:4321');
    for (const origin of ['docs.example.com', '/docs', 'javascript:alert(1)', 'ftp://example.com', 'https://user:pw@example.com', ' ']) {
      expect(() => resolveConfig({ ...minimal, origin }), origin).toThrow(
        'origin: must be an absolute http(s) URL such as "https://docs.example.com"',
      );
    }
  });

  it('merges partial weights and recency with the defaults', () => {
    const c = resolveConfig({ ...minimal, weights: { title: 20 }, recency: { boost: 0 } });
    expect(c.weights).toEqual({ title: 20, description: 5, content: 1, tags: 3 });
    expect(c.recency).toEqual({ boost: 0, windowDays: 1095 });
  });

  it('accepts apiRoute: false and a single file without :slug', () => {
    const c = resolveConfig({ ...minimal, apiRoute: false, sources: [{ files: ['README.md'], type: 'page', url: '/about/' }] });
    expect(c.apiRoute).toBe(false);
    expect(c.sources[0]!.files).toEqual(['README.md']);
  });

  it('returns a resolved config unchanged and frozen', () => {
    const c = resolveConfig(minimal);
    expect(resolveConfig(c)).toBe(c);
    expect(Object.isFrozen(c)).toBe(true);
    expect(Object.isFrozen(c.weights)).toBe(true);
  });

  it('accepts a spread resolved config with changes (its derived types are recomputed)', () => {
    const c = resolveConfig(minimal);
    const changed = resolveConfig({ ...c, cors: false, sources: [...c.sources, { dir: 'd', type: 'doc', url: '/d/:slug' }] } as never);
    expect(changed.cors).toBe(false);
    expect(changed.types).toEqual(['post', 'doc']);
  });

  it('defineSearchOptions is the identity', () => {
    expect(defineSearchOptions(minimal)).toBe(minimal);
  });

  it('defineSearchOptions rejects unknown keys at compile time (tsc --noEmit fails if a @ts-expect-error goes unused)', () => {
    const misspelt = () =>
      defineSearchOptions({
        database: 'd',
        sources: [{ dir: 'c', type: 'doc', url: '/:slug', emoji: '📄' }],
        // @ts-expect-error: maxLimt is not an option (did you mean maxLimit?)
        maxLimt: 5,
      });
    const nested = () =>
      // @ts-expect-error: a source has no "path" key
      defineSearchOptions({ database: 'd', sources: [{ dir: 'c', type: 'doc', url: '/:slug', path: 'x' }] });
    const weights = () =>
      // @ts-expect-error: weights has no "body" column
      defineSearchOptions({ database: 'd', sources: [{ dir: 'c', type: 'doc', url: '/:slug' }], weights: { body: 2 } });
    // And the same objects fail at run time, where plain JavaScript configs are checked.
    for (const define of [misspelt, nested, weights]) expect(() => resolveConfig(define())).toThrow(SiteSearchConfigError);
  });
});

describe('resolveConfig: throws listing every problem with its path', () => {
  it('asks sources sharing a type to agree on recency, which applies to their type', () => {
    expect(
      problems({
        database: 'd',
        sources: [
          { dir: 'a', type: 'doc', url: '/a/:slug', recency: false },
          { dir: 'b', type: 'doc', url: '/b/:slug' },
          { dir: 'c', type: 'post', url: '/c/:slug', recency: 'no' },
        ],
      }),
    ).toEqual([
      'sources[2].recency: must be true or false',
    ]);
    expect(problems({ database: 'd', sources: [{ dir: 'a', type: 'doc', url: '/a/:slug', recency: false }, { dir: 'b', type: 'doc', url: '/b/:slug' }] })).toEqual([
      'sources: those sharing a type must set the same "recency" (true or false), since it applies per type at search time',
    ]);
  });

  it('checks synonyms: one-word keys, lists of words or phrases, lowercased', () => {
    const base = { database: 'd', sources: [{ dir: 'a', type: 'doc', url: '/a/:slug' }] };
    expect(resolveConfig({ ...base, synonyms: { K8s: ['Kubernetes', ' not  found '] } }).synonyms).toEqual({ k8s: ['kubernetes', 'not found'] });
    expect(resolveConfig(base).synonyms).toEqual({});
    expect(problems({ ...base, synonyms: { 'not found': ['404'] } }).join('\n')).toMatch(/each key must be one word/);
    expect(problems({ ...base, synonyms: { k8s: 'kubernetes' } }).join('\n')).toMatch(/synonyms\.k8s: must be an array of words or phrases/);
    expect(problems({ ...base, synonyms: { k8s: ['say "hi"'] } }).join('\n')).toMatch(/without quotes/);
    expect(problems({ ...base, synonyms: { k8s: Array(11).fill('x') } }).join('\n')).toMatch(/at most 10 synonyms per word/);
  });

  it('lists all problems at once, each with its path', () => {
    expect(
      problems({
        database: '',
        binding: 'SEARCH-DB',
        sources: [
          { dir: 'a', type: 'doc', url: '/docs/:slug' },
          { type: '', url: '/x' },
        ],
        maxLimit: 0,
        maxOffset: -1,
        maxQueryLength: 2.5,
        weights: { title: -1 },
        recency: { boost: -0.1, windowDays: 0 },
        apiRoute: 'api/search',
        snippetTokens: 65,
      }),
    ).toEqual(
      expect.arrayContaining([
        'database: must not be empty',
        'binding: must be a JavaScript identifier such as "SEARCH_DB"',
        'sources[1].type: must not be empty',
        'sources[1]: needs exactly one of "dir" or "files"',
        'sources[1].url: must contain ":slug"',
        'maxLimit: must be at least 1',
        'maxOffset: must be 0 or more',
        'maxQueryLength: must be a whole number',
        'weights.title: must be 0 or more',
        'recency.boost: must be 0 or more',
        'recency.windowDays: must be greater than 0',
        'apiRoute: must start with "/"',
        'snippetTokens: must be at most 64 (the FTS5 limit)',
      ]),
    );
  });

  it('requires database and sources', () => {
    expect(problems({})).toEqual([
      "database: is required, e.g. database: 'my-site-search' (the D1 database name; any name for a Node site)",
      "sources: is required, e.g. sources: [{ dir: 'src/content/blog', type: 'post', url: '/blog/:slug/' }]",
    ]);
    expect(problems({ database: 'd', sources: [] })).toEqual(['sources: must list at least one source']);
  });

  it('rejects a source with both dir and files', () => {
    expect(problems({ database: 'd', sources: [{ dir: 'a', files: ['b.md'], type: 't', url: '/:slug' }] })).toEqual([
      'sources[0]: needs exactly one of "dir" or "files"',
    ]);
  });

  it('names unknown keys and suggests the closest known one', () => {
    expect(problems({ ...minimal, maxLimt: 5, colour: 'red' })).toEqual([
      'maxLimt: unknown option (did you mean "maxLimit"?)',
      'colour: unknown option',
    ]);
    expect(problems({ ...minimal, sources: [{ dir: 'a', type: 't', url: '/:slug', skipdirs: [] }] })).toEqual([
      'sources[0].skipdirs: unknown option (did you mean "skipDirs"?)',
    ]);
    expect(problems({ ...minimal, weights: { titel: 2 } })).toEqual(['weights.titel: unknown option (did you mean "title"?)']);
  });

  it('reports wrong types plainly', () => {
    expect(problems({ ...minimal, cors: 'yes', cacheMaxAge: '300' })).toEqual([
      'cors: must be true or false',
      'cacheMaxAge: must be a number',
    ]);
    expect(problems({ ...minimal, ranking: 'bm25f' })).toEqual(['ranking: must be "fields" or "fts5"']);
    expect(problems(null)).toEqual(['options: must be an object such as { database, sources }']);
    expect(problems({ ...minimal, database: undefined })).toEqual(["database: is required, e.g. database: 'my-site-search' (the D1 database name; any name for a Node site)"]);
    expect(problems({ ...minimal, weights: [], recency: [1] })).toEqual(['weights: must be an object', 'recency: must be an object']);
  });
});
