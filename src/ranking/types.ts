import type { SqlValue } from '../db/types.js';

/** Where a search looks: its site, the type and tags asked (`''` and none: every type, any tags), every configured type. */
export interface SearchScope {
  site: string;
  type: string;
  tags: readonly string[];
  types: readonly string[];
}

/**
 * Types whose vocabulary corrected the query alike: in their pages each of the query's words in `corrections` also
 * stands for its corrections. A completion (the last word typed partway, completed) is not a misspelling: its pages
 * hold the words as far as they were typed.
 */
export interface CorrectionGroup {
  types: readonly string[];
  corrections: ReadonlyMap<string, readonly string[]>;
  completion: boolean;
}

/**
 * How a query's terms came: `typed`, as the reader typed them (the last one possibly typed partway, each beside the
 * next), or `reduced`, a question of more words than `maxTerms` reduced to its informative ones (docs/ranking.md,
 * "Long questions"): each whole and no two necessarily neighbours, so none is a prefix and no run of them is a name.
 */
export type TermsForm = 'typed' | 'reduced';

/** A query as judged before its statement: its terms, and what each of its words stands for, in which types. */
export interface JudgedQuery {
  terms: readonly string[];
  form: TermsForm;
  /** Each word's configured synonyms (`synonyms` option). */
  synonyms: ReadonlyMap<string, readonly string[]>;
  /** The built-in docs vocabulary's words for the query's words (`vocabulary` option), counted below the words typed. */
  vocabulary: readonly string[];
  /** The types corrected, grouped by their corrections; a type in none searches the words as typed. */
  groups: readonly CorrectionGroup[];
}

/** What a ranking statement is asked besides the query: the page, the facets, and the scoring configuration. */
export interface StatementRequest {
  limit: number;
  offset: number;
  facets: readonly ('type' | 'tags')[];
  /** At most this many values per facet, the most frequent first. */
  facetLimit: number;
  /** Day number recency is measured from (bound, not written into the SQL). */
  today: number;
  weights: { title: number; description: number; content: number; tags: number };
  recency: { boost: number; windowDays: number };
  /** Types whose pages rank as undated (sources with `recency: false`). */
  undatedTypes: readonly string[];
  snippetTokens: number;
  /**
   * `ranking: 'fields'` (the default): titles and headings are scored on their own length beside the page's bm25;
   * `'fts5'`: SPEC.md's bm25 of the page alone.
   */
  fieldAware: boolean;
  /**
   * The database bills every row a statement reads (D1), and its CPU time is small beside a round trip: a feature of
   * the window is looked up row by row rather than read from every match and filtered.
   */
  rowsBilled: boolean;
  /** Count the tags through groups where rows are billed (the one pass's value was too large: D1 holds 2 MB in one). */
  tagGroups?: boolean;
  /** How the page's rows are read again for their snippets: by rowid (two rows each), or the range they span. */
  pageBy: 'rowid' | 'range';
  /**
   * `widen` (default true): the query stands for more than its words as typed (misspelled words corrected, any of
   * the words); `false` is SPEC.md's literal query alone.
   */
  widen: boolean;
}

/** Which of its words a result was found by, as the endpoint says it (docs/http-api.md, `match`). */
export type MatchStep = 'all' | 'any' | 'typo';

/**
 * A ranking: the plan of the one statement that finds a query's pages, ranks them, reads the page asked, counts the
 * facets, and decides the order once (docs/ranking.md). Each ranking owns its statement and its order.
 */
export interface Ranking {
  /** The `ranking` option value it answers: `'fields'` (coverage, the default) or `'fts5'` (SPEC.md's literal steps). */
  readonly name: 'coverage' | 'literal';
  /**
   * What it searches of a query longer than `maxTerms` words: the `rarest` of its informative words (docs/ranking.md,
   * "Long questions"), or SPEC.md's `first` `maxTerms` words.
   */
  readonly longQueries: 'rarest' | 'first';
  /**
   * The expression a page holding the whole query as typed matches: a word is corrected in a type only while fewer
   * than ten of the type's pages match it (docs/ranking.md, "Misspellings").
   */
  strict(query: Pick<JudgedQuery, 'terms' | 'synonyms' | 'form'>): string;
  statement(query: JudgedQuery, scope: SearchScope, request: StatementRequest): { sql: string; params: SqlValue[] };
  /**
   * How a result was found (`match`), from its row: its tier, whether it holds every word, and whether its type was
   * corrected for a misspelling (`misspelled`).
   */
  match(row: { tier: number; holds: boolean; type: string }, misspelled: (type: string) => boolean): MatchStep;
}

/**
 * A row of a ranking statement: the answer's own fields, on every row, and one result of the page asked with its place
 * in the answer (its fields NULL on the one row of an answer whose page is empty). The rows come in no order: a result
 * is shown at its `place`.
 */
export interface RankedRow {
  /** The vocabulary generation the statement read (NULL for an index pushed before it was recorded). */
  generation: string | null;
  /** The type and tier of the first result of the whole ranking (whatever page is asked): what the suggestion follows. */
  best_type: string | null;
  best_tier: number | null;
  best_holds: number | null;
  /** The facet counts, `[[facet, value, count], …]` as JSON (NULL when none were asked). */
  facets: string | null;
  /** The result's place in the whole answer, from 1: the order the statement decided. */
  place: number | null;
  id: number | null;
  /** Shown to the reader: lower is better, ascending through the whole ranking (each tier placed after the one before). */
  score: number | null;
  /** 0 first; what a tier means is the ranking's (docs/ranking.md). */
  tier: number | null;
  /** 1 when the page holds every word of the query (or what it stands for in the page's type). */
  holds: number | null;
  title: string | null;
  url: string | null;
  type: string | null;
  date: string | null;
  tags: string | null;
  emoji: string | null;
  description: string | null;
  snippet: string | null;
  /** The page's sections, `[[heading, anchor, folded text, text as written], …]` as JSON. */
  sections: string | null;
}
