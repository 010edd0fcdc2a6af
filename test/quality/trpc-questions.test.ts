/**
 * tRPC's 80 questions (test/fixtures/trpc-docs/QUERIES.md) are scored by URL, and the pages sit at the URLs of four
 * sources (current docs, v10, v9, blog) that share frontmatter slugs across versions: a mistyped path, or a page found
 * at another version's URL, would count as a miss for every engine in `npm run bench:relevance` instead of failing
 * anywhere. These check that every target and also_ok page is an indexed page at the URL its own source gives it,
 * and that the questions are what QUERIES.md says they are. Real files, the real indexer; the corpus is in the
 * repository.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/index.js';
import { codePointLength } from '../../src/text/code-points.js';
import { LABELED_SETS, labeledPages, LONG_QUESTION_LIMIT, setOptions, setQueries } from '../../bench/labeled-queries.js';
import { indexedPaths, unresolved } from '../helpers/labeled-pages.js';

const trpc = LABELED_SETS.find((s) => s.name === 'trpc')!;

describe('the tRPC questions name indexed pages (test/fixtures/trpc-docs-queries.tsv)', () => {
  let indexed: Set<string>;
  beforeAll(async () => {
    indexed = await indexedPaths(setOptions(trpc));
  }, 60_000);

  it('indexes the 205 pages of the four sources', () => {
    expect(indexed.size).toBe(205);
  });

  it('every target and also_ok page is an indexed page', () => {
    expect(labeledPages(trpc.queries, trpc.corpus, trpc.sources)).toHaveLength(90);
    expect(unresolved(trpc.queries, trpc.corpus, indexed, trpc.sources)).toEqual([]);
  });

  it('a page is scored at the URL of its own version: the v10 copy of a page is not the current one', () => {
    const routers = (page: string) => labeledPages(trpc.queries, trpc.corpus, trpc.sources).find((p) => p.page === page)?.url;
    expect(routers('docs/server/routers.md')).toBe('/docs/server/routers');
    expect(routers('versioned_docs/version-10.x/server/validators.md')).toBe('/docs/v10/server/validators');
    expect(routers('blog/2024-05-23-trpc-actions.mdx')).toBe('/blog/trpc-actions');
  });

  describe('a page that is not indexed is reported', () => {
    const dir = mkdtempSync(join(tmpdir(), 'trpc-questions-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('a mistyped path and a file outside the four sources both fail the check', () => {
      const file = join(dir, 'typo.tsv');
      writeFileSync(
        file,
        'lang\tkind\tquery\ttarget\talso_ok\n' +
          'en\tshort\trouters\tdocs/server/routerz.md\t\n' +
          'en\tshort\treadme\tdocs/server/routers.md\tREADME.md\n',
      );
      expect(unresolved(file, trpc.corpus, indexed, trpc.sources)).toEqual(['docs/server/routerz.md (routers)', 'README.md (readme)']);
    });
  });
});

describe('the tRPC questions are the ones QUERIES.md describes', () => {
  const questions = setQueries(trpc);
  const ofKind = (kind: string) => questions.filter((q) => q.kind === kind);

  it('80 English questions: 20 short, 20 natural, 40 assistant', () => {
    expect(questions).toHaveLength(80);
    expect(questions.filter((q) => q.lang !== 'en').map((q) => q.query)).toEqual([]);
    expect([ofKind('short').length, ofKind('natural').length, ofKind('assistant').length]).toEqual([20, 20, 40]);
  });

  it('short queries have 2 to 4 words and natural questions fit the endpoint limit', () => {
    const { maxQueryLength } = resolveConfig(setOptions(trpc));
    expect(maxQueryLength).toBe(100);
    const words = (q: string) => q.split(/\s+/).length;
    expect(ofKind('short').filter((q) => words(q.query) < 2 || words(q.query) > 4).map((q) => q.query)).toEqual([]);
    expect([...ofKind('short'), ...ofKind('natural')].filter((q) => codePointLength(q.query) > maxQueryLength).map((q) => q.query)).toEqual([]);
  });

  it('assistant questions are 60 to 300 characters, within the limit site-search is given for them', () => {
    expect(trpc.longKinds).toEqual(['assistant']);
    const outside = ofKind('assistant').filter((q) => codePointLength(q.query) < 60 || codePointLength(q.query) > Math.min(300, LONG_QUESTION_LIMIT));
    expect(outside.map((q) => q.query)).toEqual([]);
  });
});
