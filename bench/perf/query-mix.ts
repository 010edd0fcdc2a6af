/**
 * The latency benchmark's query mix, by kind: what a docs site's search box receives. The 80 labeled queries (short
 * keywords, natural questions, API names, error messages, five of them misspelt), the common words and 2-letter
 * prefixes sent while someone types, and, so that the paths past the strict step are timed as often as users take
 * them (issue 36): misspellings, questions, and last words typed partway (completions). docs/benchmarks.md lists it.
 */
import { loadQueries } from '../labeled-queries.js';

/** What a query of the mix stands for. */
export type QueryKind = 'keyword' | 'question' | 'misspelling' | 'completion' | 'name or error' | 'typing (common word or 2-letter prefix)';

export interface MixQuery {
  q: string;
  lang: string;
  kind: QueryKind;
}

/** The labeled queries that are misspelt, and those whose last word is typed partway (the file's kinds are `short`, `natural`, `hard` and `body`). */
const MISSPELT_LABELED = new Set(['enviroment variables', 'typscript', 'pagnation', 'vercell', 'authentification']);
const PARTIAL_LABELED = new Set(['content coll', 'middlew', 'integrat', 'internation', 'dev tool']);

const labeledKind = (kind: string, query: string): QueryKind => {
  if (MISSPELT_LABELED.has(query)) return 'misspelling';
  if (PARTIAL_LABELED.has(query)) return 'completion';
  return kind === 'natural' ? 'question' : kind === 'short' || kind === 'body' ? 'keyword' : 'name or error';
};

const en = (kind: QueryKind, queries: string[]): MixQuery[] => queries.map((q) => ({ q, lang: 'en', kind }));

/** Every query of the mix, in a fixed order. */
export const MIX: MixQuery[] = [
  ...loadQueries().map((q) => ({ q: q.query, lang: q.lang, kind: labeledKind(q.kind, q.query) })),
  ...en('typing (common word or 2-letter prefix)', ['astro', 'the', 'co', 'de', 'component', 'config', 'page', 'import', 'build', 'deploy']),
  // One or two letters wrong, swapped, missing or doubled, alone or beside a correct word: each one corrected at 10,000 documents.
  ...en('misspelling', [
    'cahce', 'wrokers', 'middelware redirect', 'layuot', 'compnent props', 'deploymnet', 'integartion', 'markdwon', 'typscript config',
    'serverles functions', 'rendring', 'pagination exmaple', 'prerendr',
  ]),
  // The last word typed partway, as a search box sends it while someone types. Typed past its stem (`authenticati`,
  // stem `authent`) the prefix matches no indexed word and the handler completes it from the vocabulary; the others
  // match as prefixes.
  ...en('completion', ['authenticati', 'deploymen', 'optimizati', 'configurati', 'server renderi', 'getStaticPa', 'image optimiz', 'view transitio']),
  ...en('question', ['how do i add a sitemap', 'how to use environment variables', 'what is an island', 'why does my page not update']),
];

/** The share of the mix each kind holds. */
export function mixShares(): Record<QueryKind, number> {
  const shares = {} as Record<QueryKind, number>;
  for (const { kind } of MIX) shares[kind] = (shares[kind] ?? 0) + 1 / MIX.length;
  return shares;
}

// Issue 36: the mix holds at least 10% misspellings and 10% questions, and completions. A change that drops them fails here.
const shares = mixShares();
if ((shares.misspelling ?? 0) < 0.1 || (shares.question ?? 0) < 0.1 || !shares.completion) {
  throw new Error(`[site-search] bench/perf/query-mix.ts: the mix needs ≥ 10% misspellings and questions and some completions (${JSON.stringify(shares)}); add queries of the kind short of it`);
}
