/**
 * One search: the query's words judged in each type searched (which to correct or complete, from the vocabulary kept
 * in memory), then one ranking statement that finds, ranks and reads the page asked, then its rows formatted
 * (docs/architecture.md, "Following a request"). On D1 at most two round trips: the first search of a process or
 * isolate reads the vocabulary, a query with a word to correct counts the pages holding it as typed, and a long
 * question counts each word's pages to search the rarest, in one statement before the ranking's.
 */
import { countMatches, inspect, type MatchCount } from '../db/index-state.js';
import type { SearchDatabase } from '../db/types.js';
import { PREFIX_INDEX_MAX } from '../db/schema.js';
import type { ResolvedConfig } from '../options/options.js';
import { scoped } from '../ranking/judged-expressions.js';
import { legacyStatement } from '../ranking/legacy.js';
import { anyOf, wordsOf } from '../ranking/expressions.js';
import type { CorrectionGroup, JudgedQuery, RankedRow, Ranking, SearchScope, StatementRequest, TermsForm } from '../ranking/types.js';
import { codePointLength } from '../text/code-points.js';
import { vocabularyFor } from './docs-vocabulary.js';
import { facetCounts, MAX_FACET_VALUES } from './facets.js';
import { correctionGroups, correctionsByType, WIDEN_BELOW } from './judgement.js';
import { knownIndex, rememberIndex, type KnownIndex } from './known-index.js';
import { countBound, planQuery, rarestWords, type QueryPlan } from './long-questions.js';
import { searchWords, type SearchInput } from './query.js';
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
  const words = searchWords(input.q);
  if (words.length === 0) return { results: [] };
  const ranking = rankingFor(config, runtime.rankings);
  const found = (await searchOnce(config, db, input, words, ranking, runtime)) ?? (await searchOnce(config, db, input, words, ranking, runtime, true));
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
  words: string[],
  ranking: Ranking,
  runtime: SearchRuntime,
  fresh = false,
): Promise<SearchOutcome | undefined> {
  const scope: SearchScope = { site: config.site, type: input.type, tags: input.tags, types: config.types };
  const { known, query } = await judgeQuery(config, db, input, words, ranking, fresh);
  const request = statementRequest(config, input, query, runtime);
  const format = formatting(config, query, words, ranking, runtime);
  if (!known.current) return outcomeOf(await rows(db, legacyStatement([...query.terms], scope, request)), format);
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
  return outcomeOf(answer, format);
}

/**
 * The query judged: which of its words are searched (up to `maxTerms` as typed; of a longer question, its informative
 * words, the rarest when there are more: docs/ranking.md, "Long questions"), and, in each type searched, which of them
 * are corrected or completed ("Misspellings and completions"), by the vocabulary kept in memory (read first when this
 * process has none of this index yet), only where fewer than ten of the type's pages hold every word as typed.
 * Every type is judged when the type facet is asked, so that a type's count is what choosing it gives.
 * @internal Exported for the benchmark's floor, which ranks what the search judged.
 */
export async function judgeQuery(
  config: ResolvedConfig,
  db: SearchDatabase,
  input: SearchInput,
  words: string[],
  ranking: Ranking,
  fresh = false,
): Promise<{ known: KnownIndex; query: JudgedQuery }> {
  const plan: QueryPlan = ranking.longQueries === 'rarest' ? planQuery(words, config.maxTerms) : { kind: 'typed', terms: words.slice(0, config.maxTerms) };
  if (plan.kind === 'rarest') return judgeRarest(config, db, input, plan.words, ranking, fresh);
  return judgeTerms(config, db, input, plan.terms, plan.kind === 'typed' ? 'typed' : 'reduced', ranking, fresh);
}

/** The types whose vocabulary and pages judge the query: the one asked, or every type (none asked, or the type facet). */
function judgedTypes(config: ResolvedConfig, input: SearchInput): readonly string[] {
  return input.type && !input.facets.includes('type') ? [input.type] : config.types;
}

/** A query whose terms are decided (`form`): each type's corrections, where fewer than ten of its pages hold every word. */
async function judgeTerms(
  config: ResolvedConfig,
  db: SearchDatabase,
  input: SearchInput,
  terms: string[],
  form: TermsForm,
  ranking: Ranking,
  fresh: boolean,
): Promise<{ known: KnownIndex; query: JudgedQuery }> {
  const judged = judgedTypes(config, input);
  const synonyms = synonymsOf(terms, config.synonyms);
  const strictIn = (type: string): MatchCount => ({ name: type, match: scoped(ranking.strict({ terms, synonyms, form }), { site: config.site, type, tags: [] }) });
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
    const byType = correctionsByType(terms, judged, known.vocabulary, config.site, form);
    if (byType.size) {
      strict ??= await countMatches(db, [...byType.keys()].map(strictIn), WIDEN_BELOW);
      groups = correctionGroups(byType, judged, strict, form === 'typed' ? terms[terms.length - 1]! : '');
    }
  }
  return { known, query: judgedQuery(config, ranking, terms, form, groups) };
}

/**
 * A question of more informative words than `maxTerms`: each word's pages counted in the site and type asked (in the
 * statement that reads the index, when this process has none of it yet), the rarest searched. A word no page holds is
 * corrected in the types whose vocabulary corrects it, with no count of its own: no page holds every word as typed.
 */
async function judgeRarest(
  config: ResolvedConfig,
  db: SearchDatabase,
  input: SearchInput,
  words: string[],
  ranking: Ranking,
  fresh: boolean,
): Promise<{ known: KnownIndex; query: JudgedQuery }> {
  const where = { site: config.site, type: input.type, tags: [] };
  const counted = words.map((word): MatchCount => ({ name: word, match: scoped(anyOf([word]), where) }));
  const most = countBound(words.length);
  let known = fresh ? undefined : knownIndex(db);
  let counts: Map<string, number> | undefined;
  if (!known) {
    const inspected = await inspect(db, { vocabulary: true, counts: counted, most });
    known = rememberIndex(db, inspected);
    counts = inspected.counts;
  }
  if (!known.current) return { known, query: judgedQuery(config, ranking, words.slice(0, config.maxTerms), 'reduced', []) };
  counts ??= await countMatches(db, counted, most);
  const held = counts;
  const judged = judgedTypes(config, input);
  const unheld = words.filter((word) => !held.get(word));
  const byType = config.widen ? correctionsByType(unheld, judged, known.vocabulary, config.site, 'reduced') : new Map<string, Map<string, string[]>>();
  const corrected = new Set([...byType.values()].flatMap((corrections) => [...corrections.keys()]));
  const rarest = rarestWords(words, held, corrected, config.maxTerms);
  const terms = rarest.length ? rarest : words.slice(0, config.maxTerms);
  const keptCorrections = new Map(
    [...byType].map(([type, corrections]) => [type, new Map([...corrections].filter(([word]) => terms.includes(word)))] as const).filter(([, c]) => c.size > 0),
  );
  return { known, query: judgedQuery(config, ranking, terms, 'reduced', correctionGroups(keptCorrections, judged, new Map(), '')) };
}

/** The judged query of `terms`: their synonyms and docs-vocabulary words beside the corrections. */
function judgedQuery(config: ResolvedConfig, ranking: Ranking, terms: string[], form: TermsForm, groups: CorrectionGroup[]): JudgedQuery {
  const synonyms = synonymsOf(terms, config.synonyms);
  const vocabulary = ranking.name === 'coverage' && config.vocabulary ? vocabularyFor(terms, config.synonyms) : [];
  return { terms, form, synonyms, vocabulary, groups };
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
function statementRequest(config: ResolvedConfig, input: SearchInput, query: JudgedQuery, runtime: SearchRuntime): StatementRequest {
  const rowsBilled = runtime.rowsBilled ?? false;
  const lastWord = wordsOf(query.terms[query.terms.length - 1]!).at(-1)!;
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
    // rows read are billed, or when no prefix is searched (a reduced question) or the last word's has an index of its
    // own (up to 6 letters), so that no lookup merges every word starting with it.
    pageBy: rowsBilled || query.form === 'reduced' || codePointLength(lastWord) <= PREFIX_INDEX_MAX ? 'rowid' : 'range',
    widen: config.widen,
  };
}

function formatting(config: ResolvedConfig, query: JudgedQuery, words: readonly string[], ranking: Ranking, runtime: SearchRuntime): Formatting {
  const alike = [...[...query.synonyms.values()].flat(), ...query.vocabulary];
  return { terms: query.terms, words, groups: query.groups, alike, ranking, origin: runtime.origin, sections: config.sections, snippetTokens: config.snippetTokens };
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
