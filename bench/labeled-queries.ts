/** The labeled astro-docs queries and how a ranked list is scored against them (shared by the benchmark and tests). */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SearchOptions } from '../src/index.js';
import { pathToSlug, slugToUrl } from '../src/indexer/slug.js';

const here = dirname(fileURLToPath(import.meta.url));
export const CORPUS = join(here, '../../shared/corpora/astro-docs');
const QUERIES = join(here, '../../shared/corpora/astro-docs-queries.tsv');

/** A folder of a labeled corpus indexed as one source: `dir` relative to the corpus. */
export interface LabeledSource {
  dir: string;
  type: string;
  url: string;
}

/** A docs site and the questions labeled on it. */
export interface LabeledSet {
  name: string;
  /** A folder per language (the source type), unless `sources` says otherwise. */
  corpus: string;
  queries: string;
  /** Long assistant-style questions on the same pages, reported as a kind of their own beside `queries`. */
  long?: string;
  /** The site's sources as its users would configure them, when they are not one folder per language. */
  sources?: LabeledSource[];
  /** Kinds of `queries` that are long questions: site-search answers them with `maxQueryLength` LONG_QUESTION_LIMIT. */
  longKinds?: string[];
}

/**
 * tRPC's docs as trpc.io serves them (test/fixtures/trpc-docs/README.md): the current docs, the v10 and v9 copies and
 * the blog, each at its own URL, all one type, since trpc.io's search answers from every version and the blog at once.
 */
export const TRPC_SOURCES: LabeledSource[] = [
  { dir: 'docs', type: 'en', url: '/docs/:slug' },
  { dir: 'versioned_docs/version-10.x', type: 'en', url: '/docs/v10/:slug' },
  { dir: 'versioned_docs/version-9.x', type: 'en', url: '/docs/v9/:slug' },
  { dir: 'blog', type: 'en', url: '/blog/:slug' },
];

/**
 * The visible labeled sets: Astro's docs (1,831 pages, six languages, beside the repository) and Electron's (296 pages,
 * in the repository: test/fixtures/electron-docs/README.md says how its 60 questions were written), each with 25 long
 * questions in test/fixtures (test/fixtures/LONG-QUERIES.md says how they were written); and tRPC's (205 pages in three
 * versions and a blog, in the repository), whose 80 questions include 40 assistant-style ones of kind `assistant`
 * (test/fixtures/trpc-docs/QUERIES.md).
 */
export const LABELED_SETS: LabeledSet[] = [
  { name: 'astro', corpus: CORPUS, queries: QUERIES, long: join(here, '../test/fixtures/astro-docs-long-queries.tsv') },
  {
    name: 'electron',
    corpus: join(here, '../test/fixtures/electron-docs'),
    queries: join(here, '../test/fixtures/electron-docs-queries.tsv'),
    long: join(here, '../test/fixtures/electron-docs-long-queries.tsv'),
  },
  {
    name: 'trpc',
    corpus: join(here, '../test/fixtures/trpc-docs'),
    queries: join(here, '../test/fixtures/trpc-docs-queries.tsv'),
    sources: TRPC_SOURCES,
    longKinds: ['assistant'],
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
 * page is found at the URL the indexer gives it: its source's URL pattern (one folder per language unless `sources`
 * says otherwise) with its frontmatter `slug` when it sets one, else its path under the source.
 */
export function loadQueries(file = QUERIES, corpus?: string, sources?: readonly LabeledSource[]): LabeledQuery[] {
  const urlOf = pageUrls(corpus, sources);
  // A page no source holds keeps its path, and scores as a miss: labeledPages reports it.
  const url = (page: string) => urlOf(page) ?? `/${pathToSlug(page)}`;
  return readRows(file).map(({ lang, kind, query, pages }) => ({ lang, kind, query, targets: new Set(pages.map(url)) }));
}

/** The queries of a set's file (its `queries` unless another is given), pages at the URLs its sources give them. */
export function setQueries(set: LabeledSet, file = set.queries): LabeledQuery[] {
  return loadQueries(file, set.corpus, set.sources);
}

/**
 * Every page a TSV file labels (targets and also-ok pages) with the URL the indexer gives it, or no URL when the corpus
 * has no such file or no source holds it: what a test checks against the index, so a mistyped path fails there
 * rather than scoring as a miss.
 */
export function labeledPages(file: string, corpus: string, sources?: readonly LabeledSource[]): { query: string; page: string; url?: string }[] {
  const urlOf = pageUrls(corpus, sources);
  return readRows(file).flatMap(({ query, pages }) => pages.map((page) => ({ query, page, url: existsSync(join(corpus, page)) ? urlOf(page) : undefined })));
}

function readRows(file: string) {
  const [, ...rows] = readFileSync(file, 'utf8').trim().split('\n');
  return rows.map((row) => {
    const [lang, kind, query, target, alsoOk = ''] = row.split('\t');
    return { lang: lang!, kind: kind!, query: query!, pages: [target!, ...alsoOk.split(',').filter(Boolean)] };
  });
}

/**
 * The URL path of a page given as a path under the corpus, as the indexer makes it: the pattern of the source that
 * holds the page, with the page's frontmatter `slug` or else its path under the source. Without a corpus, its path.
 */
function pageUrls(corpus?: string, sources?: readonly LabeledSource[]): (page: string) => string | undefined {
  if (!corpus) return (page) => `/${pathToSlug(page)}`;
  const known = sources ?? corpusOptions(corpus).sources.map((s) => ({ ...s, dir: relative(corpus, s.dir!).split(sep).join('/') }));
  return (page) => {
    const source = known.find((s) => page.startsWith(`${s.dir}/`));
    if (!source) return undefined;
    const slug = frontmatterSlug(readFileSync(join(corpus, page), 'utf8')) || pathToSlug(page.slice(source.dir.length + 1));
    return slugToUrl(source.url, slug);
  };
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

/** The options a set is indexed with: its own sources when it names them, else one source per language folder. */
export function setOptions(set: LabeledSet): SearchOptions {
  if (!set.sources) return corpusOptions(set.corpus);
  return { database: 'bench', sources: set.sources.map((s) => ({ ...s, dir: join(set.corpus, s.dir) })) };
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
