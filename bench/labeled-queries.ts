/** The labeled astro-docs queries and how a ranked list is scored against them (shared by the benchmark and tests). */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SearchOptions } from '../src/index.js';
import { pathToSlug } from '../src/indexer/slug.js';

const here = dirname(fileURLToPath(import.meta.url));
export const CORPUS = join(here, '../../shared/corpora/astro-docs');
const QUERIES = join(here, '../../shared/corpora/astro-docs-queries.tsv');

/** A docs site and the questions labeled on it. */
export interface LabeledSet {
  name: string;
  /** A folder per language (the source type). */
  corpus: string;
  queries: string;
  /** Long assistant-style questions on the same pages, reported as a kind of their own beside `queries`. */
  long?: string;
}

/**
 * The visible labeled sets: Astro's docs (1,831 pages, six languages, beside the repository) and Electron's (296 pages,
 * in the repository: test/fixtures/electron-docs/README.md says how its 60 questions were written). Each has 25 long
 * questions in test/fixtures (test/fixtures/LONG-QUERIES.md says how they were written).
 */
export const LABELED_SETS: LabeledSet[] = [
  { name: 'astro', corpus: CORPUS, queries: QUERIES, long: join(here, '../test/fixtures/astro-docs-long-queries.tsv') },
  {
    name: 'electron',
    corpus: join(here, '../test/fixtures/electron-docs'),
    queries: join(here, '../test/fixtures/electron-docs-queries.tsv'),
    long: join(here, '../test/fixtures/electron-docs-long-queries.tsv'),
  },
];

/**
 * The longest question site-search is configured to accept for the long questions: the MCP `search` tool's bound in
 * issue 53. The endpoint's default `maxQueryLength` (100, SPEC.md) is a search box's and refuses most of them.
 */
export const LONG_QUESTION_LIMIT = 500;

export interface LabeledQuery {
  lang: string;
  kind: string;
  query: string;
  /** URL paths that count as a hit: the target page and any also-ok page. */
  targets: Set<string>;
}

/**
 * The queries of a TSV file (`lang kind query target also_ok`, pages as paths under the corpus). Given the corpus, a
 * page whose frontmatter sets a `slug` is found at the URL the indexer gives it (`/lang/slug`), not at its path.
 */
export function loadQueries(file = QUERIES, corpus?: string): LabeledQuery[] {
  return readRows(file).map(({ lang, kind, query, pages }) => ({ lang, kind, query, targets: new Set(pages.map((page) => pageUrl(page, corpus))) }));
}

/**
 * Every page a TSV file labels (targets and also-ok pages) with the URL the indexer gives it, or no URL when the corpus
 * has no such file: what a test checks against the index, so a mistyped path fails there rather than scoring as a miss.
 */
export function labeledPages(file: string, corpus: string): { query: string; page: string; url?: string }[] {
  return readRows(file).flatMap(({ query, pages }) =>
    pages.map((page) => ({ query, page, url: existsSync(join(corpus, page)) ? pageUrl(page, corpus) : undefined })),
  );
}

function readRows(file: string) {
  const [, ...rows] = readFileSync(file, 'utf8').trim().split('\n');
  return rows.map((row) => {
    const [lang, kind, query, target, alsoOk = ''] = row.split('\t');
    return { lang: lang!, kind: kind!, query: query!, pages: [target!, ...alsoOk.split(',').filter(Boolean)] };
  });
}

/** The URL path of a page given as a path under the corpus: `/lang/slug`, from its frontmatter `slug` when it sets one. */
function pageUrl(page: string, corpus?: string): string {
  const slug = corpus ? frontmatterSlug(readFileSync(join(corpus, page), 'utf8')) : undefined;
  return slug ? `/${page.split('/')[0]}/${slug}` : `/${pathToSlug(page)}`;
}

/** The `slug` of a page's YAML frontmatter, if it has one. */
function frontmatterSlug(text: string): string | undefined {
  const front = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1];
  return front ? /^slug:\s*['"]?([^'"\n]+?)['"]?\s*$/m.exec(front)?.[1]?.replace(/^\/+|\/+$/g, '') : undefined;
}

/**
 * One source per language, typed by language: how a multilingual docs site configures its search, so each query
 * searches its reader's language (every engine gets the same filter).
 */
export function corpusOptions(root: string = CORPUS): SearchOptions {
  const langs = readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
  return { database: 'bench', sources: langs.map((lang) => ({ dir: join(root, lang), type: lang, url: `/${lang}/:slug` })) };
}

export interface Score {
  rr: number;
  at1: number;
  at10: number;
  empty: number;
}

/** Reciprocal rank, hit@1, hit@10 and emptiness of one ranked list of URLs. */
export function score(urls: string[], targets: Set<string>): Score {
  const rank = urls.slice(0, 10).findIndex((u) => targets.has(new URL(u, 'http://x').pathname.replace(/\/$/, '') || '/'));
  return { rr: rank === -1 ? 0 : 1 / (rank + 1), at1: rank === 0 ? 1 : 0, at10: rank === -1 ? 0 : 1, empty: urls.length === 0 ? 1 : 0 };
}

export function summarize(scores: Score[]) {
  const mean = (k: keyof Score) => scores.reduce((s, x) => s + x[k], 0) / Math.max(1, scores.length);
  return { n: scores.length, mrr10: mean('rr'), success1: mean('at1'), success10: mean('at10'), zeroResults: mean('empty') };
}
