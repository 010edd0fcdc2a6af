/**
 * The coverage ranking (`ranking: 'fields'`, the default; docs/ranking.md, "How results are ranked"), in two phases as
 * the strongest engines rank (Vespa's first and second phase, Elasticsearch's rescore window):
 *
 * 1. **Candidates.** FTS5 ranks every page holding an informative word of the query (or a name its words make, a
 *    synonym, a docs-vocabulary word, a correction in the page's type) by its bm25, within the site, type and tags asked
 *    (their scope words are part of the full-text query), and keeps the best: the first {@link RERANK_WINDOW} are the
 *    window, and as many more as the page asked reaches.
 * 2. **The window reranked.** Each page of the window is scored once, by one formula ({@link scoreOf}), from what is
 *    read for those pages only: its title's and its headings' bm25 on their own lengths, whether it holds every word,
 *    its date and its boost. Pages of a type corrected for a
 *    misspelling come after the pages holding every word as typed (the tiers). Pages past the window follow in the
 *    first phase's order.
 *
 * The order is decided there, once, in the statement: the page asked is a slice of it, so pages of any size concatenate
 * to the same order, and the search only formats what comes back.
 */
import type { Bind } from '../db/types.js';
import { DOCS_TABLE, HEADINGS_TABLE, TABLE, TITLES_TABLE } from '../db/schema.js';
import { coveragePhrases, everyWordMatch } from './expressions.js';
import { anywhere, correctionWords, groupsSearched, inTheirTypes, judgedAll, judgedPhrases, meaning, scoped } from './judged-expressions.js';
import {
  answerRows,
  bestTable,
  binder,
  BOOST_FACTOR,
  boundCount,
  columnWeights,
  facetCounts,
  pageRowsTable,
  pageTable,
  placedTiers,
  recencyFactor,
  statementOf,
} from './statement.js';
import type { JudgedQuery, Ranking, SearchScope, StatementRequest } from './types.js';

/**
 * How many of the first phase's best pages the second phase reranks. Measured on the labeled sets (docs/ranking.md,
 * "The window"): the page that answers is in FTS5's top 100 for nearly every query, and a wider window costs more rows
 * read for each feature.
 */
export const RERANK_WINDOW = 100;

/**
 * What the second phase weighs, each measured against the first phase alone (docs/ranking.md, "What each signal
 * earns"). Exported for the ablation in `npm run bench:relevance`; a search always uses {@link SIGNALS}.
 */
export interface Signals {
  /** `weights.title` divided by this is how much the title's own bm25 adds (0: titles add nothing). */
  titles: boolean;
  /** A page's headings scored like its title, at {@link HEADING_WEIGHT} of the title's weight. */
  headings: boolean;
  /** A page holding every word counts {@link EVERY_WORD_BONUS} more. */
  everyWord: boolean;
  /** SPEC.md's recency multiplier. */
  recency: boolean;
  /** A page's `search.boost`. */
  boost: boolean;
  /** Pages of a type corrected for a misspelling after the pages holding every word as typed. */
  tiers: boolean;
}

export const SIGNALS: Signals = { titles: true, headings: true, everyWord: true, recency: true, boost: true, tiers: true };

/**
 * `weights.title` divided by this is how much a title's own bm25 adds (0.5 with the default weight of 10): scaled by
 * the title weight, so raising it makes titles count more in both parts of the score.
 */
const TITLE_WEIGHT_DIVISOR = 20;
/** How much a page's headings matching the query count beside its title matching it (each on its own length). */
const HEADING_WEIGHT = 0.5;
/** How much more a page holding every word of the query counts than its bm25 says (×1.5). */
const EVERY_WORD_BONUS = 0.5;

/** The coverage ranking's expressions for a judged query. */
interface CoverageExpressions {
  /** The first phase's: any informative word, name or meaning, in the search's scope. */
  candidates: string;
  /**
   * The same words without the search's scope, for the page's snippets: those pages are in it, and a scope word (a
   * phrase as long as the type's list of pages) would be set up again for each of them.
   */
  marked: string;
  /** Pages holding every word (or its meaning in their type); undefined when every candidate does (one word). */
  every?: string;
  /** Pages holding every word as typed: asked only when a type was corrected for a misspelling (the tiers). */
  typedEvery?: string;
  /** The types corrected for a misspelling (not completions). */
  correctedTypes: string[];
  /** What titles and headings are scored by: the words meant, without the docs vocabulary's. */
  fields: string;
  /** The query judged in every type, in the site and tags but any type: what the type counts count. */
  everyType: string;
}

function coverageExpressions(query: JudgedQuery, scope: SearchScope): CoverageExpressions {
  const { terms, vocabulary, form } = query;
  const synonyms = [...query.synonyms.values()].flat();
  const typed = coveragePhrases(terms, [...synonyms, ...vocabulary], undefined, form);
  const withFixes = (group: Parameters<typeof correctionWords>[0]) =>
    coveragePhrases(terms, [...synonyms, ...vocabulary, ...correctionWords(group)], group.corrections, form);
  const groups = groupsSearched(query, scope);
  const restrict = inTheirTypes(scope);
  const core = judgedPhrases(typed, groups, withFixes, restrict);
  const typedEvery = everyWordMatch(terms, meaning(query), undefined, form);
  const every = judgedAll(typedEvery, groups, (group) => everyWordMatch(terms, meaning(query, group), group.corrections, form), restrict);
  const fieldPhrases = coveragePhrases(terms, synonyms, undefined, form);
  const correctedTypes = groups.filter((g) => !g.completion).flatMap((g) => g.types);
  return {
    candidates: scoped(core, scope),
    marked: core,
    // One informative word, no name, no correction: every candidate holds the whole query.
    every: groups.length === 0 && typedEvery === core ? undefined : scoped(every, scope),
    typedEvery: correctedTypes.length ? scoped(typedEvery, scope) : undefined,
    correctedTypes,
    fields: judgedPhrases(fieldPhrases, groups, (group) => coveragePhrases(terms, [...synonyms, ...correctionWords(group)], group.corrections, form), anywhere),
    everyType: scoped(judgedPhrases(typed, query.groups, withFixes, inTheirTypes({ ...scope, type: '' })), { ...scope, type: '' }),
  };
}

/** The default ranking. */
export const coverageRanking: Ranking = {
  name: 'coverage',
  longQueries: 'rarest',
  strict: (query) => everyWordMatch(query.terms, meaning(query), undefined, query.form),
  statement: (query, scope, request) => coverageStatement(query, scope, request, SIGNALS),
  match: (row, misspelled) => (row.holds ? (misspelled(row.type) ? 'typo' : 'all') : 'any'),
};

/** The coverage ranking's statement with some signals left out (the ablation; a search uses them all). */
export function coverageStatement(query: JudgedQuery, scope: SearchScope, request: StatementRequest, signals: Signals) {
  const { values, bind } = binder();
  const x = coverageExpressions(query, scope);
  const depth = Math.max(RERANK_WINDOW, request.offset + request.limit);
  const window = boundCount(bind, RERANK_WINDOW);
  const features = windowFeatures(x, request, signals, window, bind);
  const facets = facetCounts(bind, scope, request, x.everyType, x.candidates);
  const ctes = [
    // Phase 1: FTS5's bm25 over the candidates, the best `depth`.
    candidatesTable(x.candidates, request, depth, bind),
    ...features.ctes,
    // Phase 2: the window scored once, the pages past it after in phase 1's order; one order for the whole answer.
    `ranked AS MATERIALIZED (SELECT id, score, tier, holds, row_number() OVER (ORDER BY tier, score, id) AS place FROM (
        SELECT id, ${scoreOf(request, signals, bind)} AS score, ${tierOf(x, signals, bind)} AS tier, holds FROM features${
          // The pages past the window, when the page asked reaches them.
          depth > RERANK_WINDOW
            ? `
        UNION ALL
        SELECT r.id, r.bm, 2, ${features.holds('r.id')} FROM (SELECT id, bm FROM candidates ORDER BY bm, id LIMIT -1 OFFSET ${window}) r`
            : ''
        }))`,
    placedTiers(),
    pageTable(bind, request),
    pageRowsTable(bind, request, x.marked),
    bestTable(),
    ...facets.ctes,
  ];
  return statementOf(`WITH ${ctes.join(',\n')}\n${answerRows(facets.json)}`, values);
}

/**
 * Phase 1 (`candidates(id, bm)`): FTS5's bm25 over the candidates, the best `depth`. Locally SQLite sorts the scored
 * matches itself, the cheapest in CPU; where rows are billed (D1), FTS5 sorts them (`ORDER BY rank`), whose rows are not
 * billed but the ones it hands over, where SQLite's sort bills each match twice (708 rows against 99 for `astro*`
 * among the English pages of the Astro docs). Ties in bm25 go by rowid locally, in FTS5's order (its matches' rowid
 * order) on D1.
 */
function candidatesTable(match: string, request: StatementRequest, depth: number, bind: Bind): string {
  const weights = columnWeights(request);
  if (request.rowsBilled) {
    return `candidates AS MATERIALIZED (SELECT rowid AS id, rank AS bm FROM ${TABLE}
      WHERE ${TABLE} MATCH ${bind(match)} AND rank MATCH 'bm25(${weights})' ORDER BY rank LIMIT ${boundCount(bind, depth)})`;
  }
  return `candidates AS MATERIALIZED (SELECT rowid AS id, bm25(${TABLE}, ${weights}) AS bm FROM ${TABLE}
    WHERE ${TABLE} MATCH ${bind(match)} ORDER BY bm, id LIMIT ${boundCount(bind, depth)})`;
}

/** The second phase's features, read for the window's pages only. */
interface Features {
  /**
   * The tables: `features(id, bm, day, boost, type, title, headings, holds, typed)`, a row per page of the window (its
   * phase 1 bm25, its `search_docs` row's day, boost and type, its title's and headings' bm25 or 0, whether it holds
   * every word and every word as typed, 1 or 0), and what it reads.
   */
  ctes: string[];
  /** Whether the page with rowid `id` (SQL), a candidate past the window, holds every word (SQL, 1 or 0). */
  holds: (id: string) => string;
}

/**
 * The window's features. Locally each feature reads every match of its expression once and keeps the window's (FTS5
 * yields its matches cheaply; what costs is scoring them, done for the kept ones only), joined to the window. Where
 * rows are billed (D1), which counts each match yielded and each row of every table a join reads, each page of the
 * window looks its features up by its rowid instead, in the one pass that reads the window.
 */
function windowFeatures(x: CoverageExpressions, request: StatementRequest, signals: Signals, window: string, bind: Bind): Features {
  const fieldAware = request.fieldAware && request.weights.title > 0;
  const lookups = {
    title: fieldAware && signals.titles ? bind(x.fields) : undefined,
    headings: fieldAware && signals.headings ? bind(x.fields) : undefined,
    every: x.every === undefined ? undefined : bind(x.every),
    typed: x.typedEvery !== undefined && signals.tiers ? bind(x.typedEvery) : undefined,
  };
  return request.rowsBilled ? lookedUp(lookups, window) : scanned(lookups, window);
}

/** A feature's expression, bound (undefined: the feature is not read). */
type Lookups = { title?: string; headings?: string; every?: string; typed?: string };

/** Features read row by row: a lookup by rowid per page of the window and feature (D1's plan). */
function lookedUp(l: Lookups, window: string): Features {
  const bm25Of = (table: string, match: string | undefined) =>
    match ? `coalesce((SELECT bm25(${table}) FROM ${table} WHERE ${table} MATCH ${match} AND rowid = w.id), 0.0)` : '0.0';
  const holding = (match: string | undefined, id: string) => (match ? `EXISTS (SELECT 1 FROM ${TABLE} WHERE ${TABLE} MATCH ${match} AND rowid = ${id})` : '1');
  return {
    ctes: [
      `features AS MATERIALIZED (SELECT w.id, w.bm, d.day, d.boost, d.type, ${bm25Of(TITLES_TABLE, l.title)} AS title, ${bm25Of(HEADINGS_TABLE, l.headings)} AS headings,
        ${holding(l.every, 'w.id')} AS holds, ${l.typed ? holding(l.typed, 'w.id') : '0'} AS typed
      FROM (SELECT id, bm FROM candidates ORDER BY bm, id LIMIT ${window}) w LEFT JOIN ${DOCS_TABLE} d ON d.id = w.id)`,
    ],
    holds: (id) => holding(l.every, id),
  };
}

/** Features read from every match of each feature's expression, kept for the window's pages (the local plan). */
function scanned(l: Lookups, window: string): Features {
  const ctes = [`window AS MATERIALIZED (SELECT id, bm FROM candidates ORDER BY bm, id LIMIT ${window})`];
  const joins: string[] = [];
  const scores = (name: string, table: string, match: string | undefined) => {
    if (!match) return '0.0';
    ctes.push(`${name} AS MATERIALIZED (SELECT rowid AS id, bm25(${table}) AS bm FROM ${table} WHERE ${table} MATCH ${match} AND +rowid IN (SELECT id FROM window))`);
    joins.push(` LEFT JOIN ${name} ON ${name}.id = w.id`);
    return `coalesce(${name}.bm, 0.0)`;
  };
  const matches = (name: string, match: string | undefined, among: string) => {
    if (match) ctes.push(`${name} AS MATERIALIZED (SELECT rowid AS id FROM ${TABLE} WHERE ${TABLE} MATCH ${match} AND +rowid IN (SELECT id FROM ${among}))`);
    return (id: string) => (match ? `(${id} IN (SELECT id FROM ${name}))` : '1');
  };
  const title = scores('title_scores', TITLES_TABLE, l.title);
  const headings = scores('heading_scores', HEADINGS_TABLE, l.headings);
  const holds = matches('every_word', l.every, 'candidates');
  const typed = matches('typed_every', l.typed, 'window');
  ctes.push(`features AS MATERIALIZED (SELECT w.id, w.bm, d.day, d.boost, d.type, ${title} AS title, ${headings} AS headings,
      ${holds('w.id')} AS holds, ${l.typed ? typed('w.id') : '0'} AS typed
    FROM window w LEFT JOIN ${DOCS_TABLE} d ON d.id = w.id${joins.join('')})`);
  return { ctes, holds };
}

/**
 * The one scoring function of the window's pages (lower is better; bm25 is negative):
 *
 *     (bm25 + w_title·bm25_title + w_title·HEADING_WEIGHT·bm25_headings)
 *       × (1 + EVERY_WORD_BONUS if the page holds every word) × boost × recency
 *
 * bm25 is FTS5's over the page's columns (weighted by `weights`); the title's and the headings' are each on their own
 * length, so a page whose title is the query is not outweighed by a long page repeating its words.
 */
function scoreOf(request: StatementRequest, signals: Signals, bind: Bind): string {
  const titleWeight = request.weights.title / TITLE_WEIGHT_DIVISOR;
  const relevance = `(bm + ${titleWeight} * title + ${titleWeight * HEADING_WEIGHT} * headings)`;
  const every = signals.everyWord ? ` * (CASE WHEN holds THEN ${1 + EVERY_WORD_BONUS} ELSE 1.0 END)` : '';
  const boost = signals.boost ? ' * coalesce(boost, 1.0)' : '';
  const recency = signals.recency ? recencyFactor(request, bind, 'day', 'type') : '';
  return `${relevance}${every}${boost}${recency}`;
}

/**
 * A window page's tier: 0, unless a type was corrected for a misspelling; then 0 for a page holding every word as
 * typed in a type that was not, 1 for every other (a reader who typed a word one type holds meant that word).
 */
function tierOf(x: CoverageExpressions, signals: Signals, bind: Bind): string {
  if (x.typedEvery === undefined || !signals.tiers) return '0';
  return `(CASE WHEN typed AND type NOT IN (SELECT value FROM json_each(${bind(JSON.stringify(x.correctedTypes))})) THEN 0 ELSE 1 END)`;
}
