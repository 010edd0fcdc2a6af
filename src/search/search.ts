/**
 * One search: the query's words judged in each type searched (which to correct or complete, from the vocabulary kept
 * in memory), then one ranking statement that finds, ranks and reads the page asked, then its rows formatted
 * (docs/architecture.md, "Following a request"). On D1 at most two round trips: the first search of a process or
 * isolate reads the vocabulary, and a query with a word to correct counts the pages holding it as typed, in one
 * statement before the ranking's.
 */
import { countByType, inspect, type TypeCount } from '../db/index-state.js';
import type { SearchDatabase } from '../db/types.js';
import { PREFIX_INDEX_MAX } from '../db/schema.js';
import type { ResolvedConfig } from '../options/options.js';
import { scoped } from '../ranking/judged-expressions.js';
import { legacyStatement } from '../ranking/legacy.js';
import { wordsOf } from '../ranking/expressions.js';
import type { CorrectionGroup, JudgedQuery, RankedRow, Ranking, SearchScope, StatementRequest } from '../ranking/types.js';
import { codePointLength } from '../text/code-points.js';
import { vocabularyFor } from './docs-vocabulary.js';
import { facetCounts, MAX_FACET_VALUES } from './facets.js';
import { correctionGroups, correctionsByType, WIDEN_BELOW } from './judgement.js';
import { knownIndex, rememberIndex, type KnownIndex } from './known-index.js';
import { searchTerms, type SearchInput } from './query.js';
import { MIN_QUERY_LENGTH } from '../text/query-length.js';
import { outcomeOf, type Formatting, type SearchOutcome } from './results.js';
import { SiteSearchConfigError } from '../errors.js';

export type { SearchOutcome, SearchResult } from './results.js';
export type { MatchStep } from '../ranking/types.js';

/** What a search needs besides the config, the database and the validated input. */
export interface SearchRuntime {
  /** Origin that stored relative URLs are resolved against (`https://example.com`). Without it URLs stay relative. */
  origin?: string;
  /** The moment recency is measured from. Default: now. */
  now?: Date;
  /** The database bills every row read (a D1 binding): the statements read fewer rows for a little more CPU. */
  rowsBilled?: boolean;
  /**
   * The rankings this code carries: the coverage ranking (the default) and, where it was given, SPEC.md's literal one
   * (`ranking: 'fts5'` or `widen: false`). A Worker ships only those it is given.
   */
  rankings: readonly Ranking[];
}

/**
 * Runs a validated search. Queries under the minimum length return nothing without touching the database. Throws a
 * `SiteSearchConfigError` when the configuration asks for a ranking this code was not given.
 */
export async function runSearch(config: ResolvedConfig, db: SearchDatabase, input: SearchInput, runtime: SearchRuntime): Promise<SearchOutcome> {
  if (codePointLength(input.q) < MIN_QUERY_LENGTH) return { results: [] };
  const terms = searchTerms(input.q, config.maxTerms);
  if (terms.length === 0) return { results: [] };
  const ranking = rankingFor(config, runtime.rankings);
  const found = (await searchOnce(config, db, input, terms, ranking, runtime)) ?? (await searchOnce(config, db, input, terms, ranking, runtime, true));
  return input.facets.length ? { ...found!, facets: facetCounts(input.facets, found!.facets) } : found!;
}

/** The ranking the configuration asks for, among those given. */
function rankingFor(config: ResolvedConfig, rankings: readonly Ranking[]): Ranking {
  const name = config.ranking === 'fields' && config.widen ? 'coverage' : 'literal';
  const ranking = rankings.find((r) => r.name === name);
  if (!ranking) {
    throw new SiteSearchConfigError([
      `${config.widen ? "ranking: 'fts5'" : 'widen: false'}: SPEC.md's literal ranking is shipped only to a Worker given it: import { literalRanking } from 'site-search/literal-ranking' and call createWorker(options, { rankings: [literalRanking] })`,
    ]);
  }
  return ranking;
}

/**
 * One attempt: judged by the index as this process knows it, or as read now (`fresh`). Undefined when the statement read
 * another vocabulary generation than the one judged by (a push since): the caller starts over, reading the index.
 */
async function searchOnce(
  config: ResolvedConfig,
  db: SearchDatabase,
  input: SearchInput,
  terms: string[],
  ranking: Ranking,
  runtime: SearchRuntime,
  fresh = false,
): Promise<SearchOutcome | undefined> {
  const scope: SearchScope = { site: config.site, type: input.type, tags: input.tags, types: config.types };
  const request = statementRequest(config, input, terms, runtime);
  const { known, query } = await judgeQuery(config, db, input, terms, ranking, fresh);
  if (!known.current) return outcomeOf(await rows(db, legacyStatement(terms, scope, request)), formatting(config, query, ranking, runtime));
  let answer: RankedRow[];
  try {
    answer = await rankedRows(db, ranking, query, scope, request);
  } catch (e) {
    // Not the index this process knew (another database, known only as the process's last one, of another version):
    // the caller reads it and searches again.
    if (!fresh && /no such (table|column)/i.test(String((e as Error).message))) return undefined;
    throw e;
  }
  // Another vocabulary than the one judged by: a push since, or another database (a D1 session is a new object each
  // request, known by the process's last index). The caller judges again by the vocabulary read now.
  if (!fresh && !sameGeneration(answer, known)) return undefined;
  return outcomeOf(answer, formatting(config, query, ranking, runtime));
}

/**
 * The query judged (docs/ranking.md, "Misspellings and completions"): in each type searched, which of its words are
 * corrected or completed, by the vocabulary kept in memory (read first when this process has none of this index yet),
 * and only where fewer than ten of the type's pages hold every word as typed (counted when a type has a correction).
 * Every type is judged when the type facet is asked, so that a type's count is what choosing it gives.
 * @internal Exported for the benchmark's floor, which ranks what the search judged.
 */
export async function judgeQuery(
  config: ResolvedConfig,
  db: SearchDatabase,
  input: SearchInput,
  terms: string[],
  ranking: Ranking,
  fresh = false,
): Promise<{ known: KnownIndex; query: JudgedQuery }> {
  const judged = input.type && !input.facets.includes('type') ? [input.type] : config.types;
  const synonyms = synonymsOf(terms, config.synonyms);
  const strictIn = (type: string): TypeCount => ({ type, match: scoped(ranking.strict({ terms, synonyms }), { site: config.site, type, tags: [] }) });
  let known = fresh ? undefined : knownIndex(db);
  let strict: Map<string, number> | undefined;
  if (!known) {
    // The vocabulary is read even when this configuration corrects nothing (`widen: false`): what is kept of the index
    // serves every search of the process, whatever its configuration.
    const inspected = await inspect(db, { vocabulary: true, counts: config.widen ? judged.map(strictIn) : [], most: WIDEN_BELOW });
    known = rememberIndex(db, inspected);
    strict = inspected.counts;
  }
  let groups: CorrectionGroup[] = [];
  if (config.widen && known.current) {
    const byType = correctionsByType(terms, judged, known.vocabulary, config.site);
    if (byType.size) {
      strict ??= await countByType(db, [...byType.keys()].map(strictIn), WIDEN_BELOW);
      groups = correctionGroups(byType, judged, strict, terms[terms.length - 1]!);
    }
  }
  const vocabulary = ranking.name === 'coverage' && config.vocabulary ? vocabularyFor(terms, config.synonyms) : [];
  return { known, query: { terms, synonyms, vocabulary, groups } };
}

/**
 * The ranking statement's rows. Where rows are billed, the tags of every match are counted from one list, which D1
 * holds only up to 2 MB in a value: past that (hundreds of pages of hundreds of tags), the statement counts through
 * groups instead, once more.
 */
async function rankedRows(db: SearchDatabase, ranking: Ranking, query: JudgedQuery, scope: SearchScope, request: StatementRequest): Promise<RankedRow[]> {
  try {
    return await rows(db, ranking.statement(query, scope, request));
  } catch (e) {
    const tooLarge = request.rowsBilled && !request.tagGroups && request.facets.includes('tags') && /string or blob too big/i.test(String((e as Error).message));
    if (!tooLarge) throw e;
    return rows(db, ranking.statement(query, scope, { ...request, tagGroups: true }));
  }
}

async function rows(db: SearchDatabase, { sql, params }: { sql: string; params: unknown[] }): Promise<RankedRow[]> {
  return (await db.prepare(sql).bind(...(params as never[])).all<RankedRow>()).results;
}

/** Whether a statement read the vocabulary generation the search was judged by. */
function sameGeneration(answer: readonly RankedRow[], known: KnownIndex): boolean {
  return (answer[0]?.generation ?? '') === known.generation;
}

/** What a ranking statement is asked besides the query. */
function statementRequest(config: ResolvedConfig, input: SearchInput, terms: string[], runtime: SearchRuntime): StatementRequest {
  const rowsBilled = runtime.rowsBilled ?? false;
  const lastWord = wordsOf(terms[terms.length - 1]!).at(-1)!;
  return {
    limit: input.limit,
    offset: input.offset,
    facets: input.facets,
    facetLimit: MAX_FACET_VALUES,
    today: dayNumber(runtime.now ?? new Date()),
    weights: config.weights,
    recency: config.recency,
    undatedTypes: config.sources.filter((s) => s.recency === false).map((s) => s.type),
    snippetTokens: config.snippetTokens,
    fieldAware: config.ranking === 'fields',
    rowsBilled,
    // The page's rows are found again by rowid where that costs FTS5 no more than reading the range they span: where
    // rows read are billed, or when the last word's prefix has an index of its own (up to 6 letters), so that no
    // lookup merges every word starting with it.
    pageBy: rowsBilled || codePointLength(lastWord) <= PREFIX_INDEX_MAX ? 'rowid' : 'range',
    widen: config.widen,
  };
}

function formatting(config: ResolvedConfig, query: JudgedQuery, ranking: Ranking, runtime: SearchRuntime): Formatting {
  const alike = [...[...query.synonyms.values()].flat(), ...query.vocabulary];
  return { terms: query.terms, groups: query.groups, alike, ranking, origin: runtime.origin, sections: config.sections, snippetTokens: config.snippetTokens };
}

/** Each query word's synonyms from the configuration (they are quoted as phrases, as the words are). */
function synonymsOf(terms: readonly string[], configured: Readonly<Record<string, readonly string[]>>): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const term of new Set(terms)) {
    const alike = Object.hasOwn(configured, term) ? configured[term]! : [];
    if (alike.length) found.set(term, [...alike]);
  }
  return found;
}

const MS_PER_DAY = 86_400_000;

function dayNumber(date: Date): number {
  return Math.floor(date.getTime() / MS_PER_DAY);
}
