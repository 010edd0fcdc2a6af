/**
 * The long assistant-style questions (test/fixtures/LONG-QUERIES.md) are scored by URL: a mistyped target page would
 * count as a miss for every engine in `npm run bench:relevance` instead of failing anywhere. These check that every
 * target and also_ok page of both files is a page the indexer indexes (frontmatter `slug` included), and that each
 * question fits the limit the benchmark gives site-search for them. Real files, the real indexer.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codePointLength } from '../../src/text/code-points.js';
import { corpusOptions, LABELED_SETS, labeledPages, loadQueries, LONG_QUESTION_LIMIT, type LabeledSet } from '../../bench/labeled-queries.js';
import { HAS_FULL_CORPUS } from '../helpers/corpus.js';
import { indexedPaths as indexedWith, unresolved } from '../helpers/labeled-pages.js';

const astro = LABELED_SETS.find((s) => s.name === 'astro')!;
const electron = LABELED_SETS.find((s) => s.name === 'electron')!;

/** The URL paths of the pages the indexer indexes from a corpus, in the languages asked (one source per language). */
function indexedPaths(corpus: string, langs: Set<string>): Promise<Set<string>> {
  const options = corpusOptions(corpus);
  return indexedWith({ ...options, sources: options.sources.filter((s) => langs.has(s.type)) });
}

/** What every long question file must hold, given the pages its corpus indexes. */
function checksOf(set: LabeledSet, indexed: () => Set<string>) {
  const file = set.long!;
  it('every target and also_ok page is an indexed page', () => {
    expect(labeledPages(file, set.corpus).length).toBeGreaterThan(25);
    expect(unresolved(file, set.corpus, indexed())).toEqual([]);
  });

  it('25 questions of kind long, each within the length site-search is given for them', () => {
    const questions = loadQueries(file, set.corpus);
    expect(questions).toHaveLength(25);
    expect(questions.filter((q) => q.kind !== 'long' || q.lang !== 'en').map((q) => q.query)).toEqual([]);
    expect(questions.filter((q) => codePointLength(q.query) > LONG_QUESTION_LIMIT).map((q) => q.query)).toEqual([]);
  });
}

describe('the Electron long questions name indexed pages (test/fixtures/electron-docs-long-queries.tsv)', () => {
  let indexed: Set<string>;
  beforeAll(async () => {
    indexed = await indexedPaths(electron.corpus, new Set(['en']));
  }, 60_000);

  checksOf(electron, () => indexed);

  describe('a page that is not indexed is reported', () => {
    const dir = mkdtempSync(join(tmpdir(), 'long-questions-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('a mistyped path and a file outside the indexed folders both fail the check', () => {
      const file = join(dir, 'typo.tsv');
      writeFileSync(
        file,
        'lang\tkind\tquery\ttarget\talso_ok\n' +
          'en\tlong\tclipboard question\ten/api/clipboard-itme.md\t\n' +
          'en\tlong\treadme question\ten/api/clipboard.md\tREADME.md\n',
      );
      expect(unresolved(file, electron.corpus, indexed)).toEqual(['en/api/clipboard-itme.md (clipboard question)', 'README.md (readme question)']);
    });
  });
});

if (!HAS_FULL_CORPUS) {
  console.warn(
    '[site-search] ../shared/corpora/astro-docs is absent: the check that test/fixtures/astro-docs-long-queries.tsv names ' +
      'indexed pages is skipped (the Electron file is checked).',
  );
}

describe.skipIf(!HAS_FULL_CORPUS)('the Astro long questions name indexed pages (skipped without ../shared/corpora/astro-docs)', () => {
  let indexed: Set<string>;
  beforeAll(async () => {
    indexed = await indexedPaths(astro.corpus, new Set(['en']));
  }, 120_000);

  checksOf(astro, () => indexed);
});
