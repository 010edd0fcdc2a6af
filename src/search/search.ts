import { resolveConfig } from '../options/config.js';
import { billsRowsRead, forSearch } from '../db/d1.js';
import { searchStatement, type SearchPlan, type PlanStep, type RankedRow, type SearchPlanRow } from '../db/search-plan.js';
import type { SearchDatabase } from '../db/types.js';
import type { ResolvedConfig, SearchOptions } from '../options/options.js';
import {
  allTermsMatch,
  anyTermMatch,
  correctedTermsMatch,
  coverageMatch,
  anyOf,
  DEFAULT_LIMIT,
  everyWordMatch,
  normalizeSearchInput,
  searchTerms,
  wordsOf,
  type RawSearchInput,
  type SearchInput,
} from './query.js';
import { DOCS_TABLE, HEADINGS_TABLE, PREFIX_INDEX_MAX, SECTIONS_TABLE, TITLES_TABLE, VOCAB_TABLE } from '../db/schema.js';
import { removeWordBreaks } from '../text/segment.js';
import { codePointLength } from '../text/code-points.js';
import { MIN_QUERY_LENGTH } from '../text/query-length.js';
import { matchingSections, sectionOf, sectionToLink, sectionSnippet, sectionWords } from './sections.js';
import { urlResolver } from './urls.js';
import { escapeSnippet } from './snippet.js';
import { CANDIDATES, chooseCorrections, completes, correctionLookups, type CorrectionLookup } from './typos.js';
import { latestTypoIndex, noteGeneration } from './packed-vocabulary.js';
import { vocabularyFor } from './docs-vocabulary.js';
import { facetCounts, facetsOfRows, MAX_FACET_VALUES, type FacetCounts } from './facets.js';
import { candidatesByType, correctionGroups, typesCorrected, type CorrectionGroup } from './type-judgements.js';

/** One search hit, as the endpoint returns it (docs/http-api.md, "Success response"). */
export interface SearchResult {
  title: string;
  /** Absolute when an origin is known (always, through the endpoint). */
  url: string;
  type: string;
  /** `YYYY-MM-DD`, or `''` when undated. */
  date: string;
  /** Space-separated. */
  tags: string;
  emoji: string;
  /** HTML-escaped excerpt in which only the `<mark>…</mark>` pairs are markup: safe to render as HTML. */
  snippet: string;
  /** bm25 × recency multiplier; lower is better. */
  score: number;
  /**
   * Which step found the document: `all` (every term: the literal query, the last word possibly completed), `any`
   * (some of the terms) or `typo` (a word corrected within 1–2 edits, tried before `any`). Looser steps only run
   * when stricter ones find fewer than 10 pages in the site and type (whatever the tags and page asked).
   */
  match: MatchStep;
  /** The section of the page that matches best (its heading, and the page URL with the heading's `#anchor`). */
  section?: { heading: string; url: string };
  /**
   * The page's sections that match the query, best first, at most `sections` (option, default 3): each with its
   * heading, its URL (with the `#anchor`) and a snippet of its text as safe as `snippet`. Absent when none matches.
   */
  sections?: { heading: string; url: string; snippet: string }[];
}

/** The search steps, strictest first. */
export type MatchStep = 'all' | 'any' | 'typo';

/** A search's results, and the corrected query when typo tolerance found them ("showing results for …"). */
export interface SearchOutcome {
  results: SearchResult[];
  suggestion?: string;
  /** The counts asked for with `facets` (docs/http-api.md, "Filters and facets"). */
  facets?: FacetCounts;
}

/** Arguments of {@link searchIndex}: the endpoint's query parameters plus the database and origin. */
export interface SearchArgs extends RawSearchInput {
  db: SearchDatabase;
  /** Origin that stored relative URLs are resolved against (`https://example.com`). Without it URLs stay relative. */
  origin?: string;
  /** The moment recency is measured from. Default: now. */
  now?: Date;
}

/**
 * Searches the index exactly as the endpoint does: same validation (throws `SearchInputError` with the 400 message),
 * same ranking, same snippets. For server-rendered search pages.
 *
 * @example const results = await searchIndex(config, { db, q: 'content collections', limit: 5, origin: Astro.url.origin });
 */
export async function searchIndex(config: SearchOptions | ResolvedConfig, args: SearchArgs): Promise<SearchResult[]> {
  const resolved = resolveConfig(config);
  const input = normalizeSearchInput(resolved, args);
  return (await runSearch(resolved, forSearch(args.db), input, args.origin, args.now, billsRowsRead(args.db))).results;
}

/**
 * Runs a validated search, widening step by step so a query is never a dead end: every term (the literal query), then any of
 * them, then with misspelled words corrected. Every step is built only from quoted literal terms and bound
 * parameters. Results of a stricter step come first; the decision to widen depends only on the query (in the site
 * and type searched), never on `tags`, `limit` or `offset`, so paging is stable and a tag filter only narrows. Queries
 * under the minimum length return nothing without touching the database.
 *
 * On the database it is one statement (one round trip on D1): the steps, the page's details and sections, and the
 * vocabulary words a misspelled term may have been meant as. Only when one of those is a correction does a second
 * statement search again with the corrections as steps of their own. Once the process holds the vocabulary in memory
 * (loaded after a search, through `background` when given: a Worker's `ctx.waitUntil`), the corrections are chosen
 * before the statement, and a corrected search is one statement too.
 */
export async function runSearch(
  config: ResolvedConfig,
  db: SearchDatabase,
  input: SearchInput,
  origin?: string,
  now: Date = new Date(),
  rowsBilled = false,
  background?: (work: Promise<unknown>) => void,
): Promise<SearchOutcome> {
  let generation: string | undefined;
  const found = await search(config, db, input, origin, now, rowsBilled, (g) => (generation = g));
  // Once the search is answered: loading the vocabulary must not hold up its statements.
  if (generation) noteGeneration(db, generation, background);
  const { facets, ...answer } = found;
  return input.facets.length ? { ...answer, facets: facetCounts(input.facets, facets) } : answer;
}

/** {@link runSearch}, telling `read` the vocabulary generation its statements read. */
async function search(
  config: ResolvedConfig,
  db: SearchDatabase,
  input: SearchInput,
  origin: string | undefined,
  now: Date,
  rowsBilled: boolean,
  read: (generation: string) => void,
): Promise<SearchOutcome> {
  if (codePointLength(input.q) < MIN_QUERY_LENGTH) return { results: [] };
  const terms = searchTerms(input.q, config.maxTerms);
  if (terms.length === 0) return { results: [] };

  const base = {
    limit: input.limit,
    offset: input.offset,
    type: input.type,
    tags: input.tags,
    facets: input.facets,
    facetLimit: MAX_FACET_VALUES,
    types: config.types,
    site: config.site,
    today: dayNumber(now),
    weights: config.weights,
    recency: config.recency,
    undatedTypes: config.sources.filter((s) => s.recency === false).map((s) => s.type),
    titleWeight: config.ranking === 'fields' ? config.weights.title / TITLE_WEIGHT_DIVISOR : 0,
    headingWeight: HEADING_WEIGHT,
    snippetTokens: config.snippetTokens,
    everyWordBonus: EVERY_WORD_BONUS,
    alikeWeight: ALIKE_WEIGHT,
    widenBelow: WIDEN_BELOW,
    rowsBilled,
  };
  // The page's rows are found again by rowid where that costs FTS5 no more than reading the range they span: where rows
  // read are billed (D1), or when the last word's prefix needs no merging for each row (up to 6 letters have an index
  // of their own, and stemming only shortens a word) or has nothing to merge (no indexed word contains it: it is
  // misspelled).
  const lastWord = wordsOf(terms[terms.length - 1]!).at(-1)!;
  const pageBy = (lastMisspelled: boolean): 'rowid' | 'range' => (rowsBilled || lastMisspelled || codePointLength(lastWord) <= PREFIX_INDEX_MAX ? 'rowid' : 'range');
  // Each word the configuration gives synonyms stands for itself or them, in every expression (docs/ranking.md).
  const synonyms = synonymsOf(terms, config.synonyms);
  const alike = [...synonyms.values()].flat();
  // A title is scored by the words it has, whichever step found the page.
  const titleMatch = anyTermMatch(terms, alike);
  const strict: PlanStep = { match: synonyms.size ? correctedTermsMatch(terms, synonyms) : allTermsMatch(terms), titleMatch };
  const any: PlanStep = { match: anyTermMatch(terms, alike), titleMatch };
  // A misspelled word is never in the index, so the strict step finding everything it needs means there is none.
  // Otherwise correct before widening: the pages with the corrected word are the answer, and would be buried under
  // pages matching only the query's other words if they came after the any-term step. So while a word is not in the
  // index, the first statement only looks it up, and the any-term step waits for the corrections.
  const lookups = config.widen ? correctionLookups(terms) : [];
  // Coverage ranking (the default): every page with an informative word of the query, ranked together, a page with
  // every word counting more. The literal formula (`ranking: 'fts5'`) and `widen: false` keep the strict step first.
  const coverage = config.widen && config.ranking === 'fields';
  // The built-in docs vocabulary's words for the query's (docs/ranking.md, "A docs vocabulary"): more pages ranked, each
  // of those words counting ALIKE_WEIGHT of a word typed, neither in the title score nor as holding every word (a page
  // with the docs' word is a candidate, not as sure an answer as one with the reader's).
  const vocabulary = coverage && config.vocabulary ? vocabularyFor(terms, config.synonyms) : [];
  const covering = (fixes: string[] = [], corrections = new Map<string, string[]>()): PlanStep => {
    const titleMatch = coverageMatch(terms, [...alike, ...fixes], corrections);
    const match = vocabulary.length ? coverageMatch(terms, [...alike, ...vocabulary, ...fixes], corrections) : titleMatch;
    return {
      match,
      titleMatch,
      every: everyWordMatch(terms, alsoMeant(synonyms, corrections), corrections),
      ...(vocabulary.length ? { alike: anyOf(vocabulary) } : {}),
    };
  };
  const lastTerm = terms[terms.length - 1]!;
  // No type asked on a site of several: the union of the query's searches in each type, each judged as `type=` judges
  // it (issue 44), so that `type=` only narrows. In one statement as before (two while the vocabulary is not in memory).
  if (config.widen && !input.type && config.types.length > 1) {
    if (!coverage) return eachTypeInSteps();
    if (lookups.length > 0) return eachType();
  }
  // Coverage ranking with the vocabulary in memory: the corrections are known before the statement, which is then the
  // only one, read from the same snapshot as the vocabulary's generation it checks.
  const known = coverage && lookups.length ? correctedInMemory(db, lookups, { site: config.site, type: input.type }, lastTerm) : undefined;
  if (known) {
    const { corrections, lastMisspelled } = known;
    const fixes = [...corrections.values()].flat();
    const corrected = corrections.size > 0;
    const rows = await run(db, {
      ...base,
      pageBy: base.offset > 0 && corrected ? 'rowid' : pageBy(corrected && lastMisspelled),
      steps: [covering(fixes, corrections)],
      generation: true,
      // A search is corrected only while fewer than WIDEN_BELOW pages hold every word as typed (a word the stemmer
      // shortens, typed partway, can still find them): counted in the same statement.
      ...(corrected ? { strictCheck: covering().every } : {}),
    });
    const generation = rows.find((r) => r.kind === 'g')?.json ?? undefined;
    if (generation) read(generation);
    const strict = Number(rows.find((r) => r.kind === 's')?.score ?? 0);
    if (generation === known.generation && strict < WIDEN_BELOW) {
      const names: MatchStep[] = corrected && !isCompletion(corrections, lastTerm) ? ['typo', 'any'] : ['all', 'any'];
      return outcome(config, terms, rows, names, corrections, origin, true, [...alike, ...vocabulary]);
    }
    if (generation === known.generation) {
      // Enough pages hold every word as typed: the query stands, uncorrected.
      return outcome(config, terms, await run(db, { ...base, pageBy: pageBy(false), steps: [covering()] }), ['all', 'any'], new Map(), origin, true, [...alike, ...vocabulary]);
    }
    // Another vocabulary than the one in memory (another database, or a push since): as if none were.
  }
  const first = await run(db, {
    ...base,
    pageBy: pageBy(false),
    // The coverage step always runs: it holds the strict step's pages, which answer when no word can be corrected.
    steps: coverage ? [covering()] : config.widen ? [strict, { ...any, unlessMisspelled: true }] : [strict],
    lookups,
    candidateLimit: CANDIDATES,
    generation: lookups.length > 0,
  });
  const generation = first.find((r) => r.kind === 'g')?.json;
  if (generation) read(generation);
  const looked = first.filter((r) => r.kind === 'c');
  const candidates = lookups.map(() => [] as string[]);
  for (const row of looked) candidates[Number(row.step)] = JSON.parse(row.json ?? '[]') as string[];
  const corrections = chooseCorrections(lookups, candidates, lastTerm);
  const absent = looked.filter((r) => Number(r.present) === 0).length;
  // A corrected search's statement past its first page is its deepest (four steps, the page, the whole ranking): the
  // range's bounds on top of it nest it past what SQLite 3.54 accepts (better-sqlite3 refused it), so it finds the
  // page's rows by rowid, the same rows.
  const lastMisspelled = looked.some((r) => Number(r.present) === 0 && lookups[Number(r.step)]?.term === lastWord);
  const again = { ...base, pageBy: base.offset > 0 ? ('rowid' as const) : pageBy(lastMisspelled) };
  if (corrections.size > 0) {
    // A whole search again, not a sequel to the first: one snapshot of the index (a push may land in between).
    const fixes = [...corrections.values()].flat();
    // A last word typed partway and completed is not a correction: its pages have every word, as far as it was typed.
    const completed = isCompletion(corrections, lastTerm);
    if (coverage) {
      const names: MatchStep[] = completed ? ['all', 'any'] : ['typo', 'any'];
      return outcome(config, terms, await run(db, { ...again, steps: [covering(fixes, corrections)] }), names, corrections, origin, true, [...alike, ...vocabulary]);
    }
    const corrected = { titleMatch: anyTermMatch(terms, [...alike, ...fixes]) };
    const steps = [strict, { ...corrected, match: correctedTermsMatch(terms, alsoMeant(synonyms, corrections)) }, any, { ...corrected, match: anyTermMatch(terms, [...alike, ...fixes]) }];
    const names: MatchStep[] = completed ? ['all', 'all', 'any', 'any'] : ['all', 'typo', 'any', 'typo'];
    return outcome(config, terms, await run(db, { ...again, steps }), names, corrections, origin, false, alike);
  }
  // A word in no page and near no indexed word: the any-term step the first statement held back is the answer, unless
  // no word of the query is in the index at all. The coverage step held nothing back: its rows are the answer.
  if (!coverage && absent > 0 && absent < new Set(terms).size) {
    return outcome(config, terms, await run(db, { ...again, steps: [strict, any] }), ['all', 'any'], corrections, origin, false, alike);
  }
  return outcome(config, terms, first, ['all', 'any'], corrections, origin, coverage, [...alike, ...vocabulary]);

  /**
   * The search of every type with steps as gates (`ranking: 'fts5'`), each type judged apart ({@link ByType}): the
   * first statement looks the words up in each type with too few strict pages and runs the any-word step in each such
   * type that has some of the words in its vocabulary; a second, as `type=` would run it in each type, when a type was
   * corrected: the corrected steps in the corrected types only, the any-word step in every type but those that miss
   * every word.
   */
  async function eachTypeInSteps(): Promise<SearchOutcome> {
    const types = config.types;
    const words = new Set(terms).size;
    // The any-word step runs at once in each type that has too few strict pages and some of the words: a second
    // statement is needed only for the types a correction is found in (as `type=` runs it, the any-word step after it).
    const first = await run(db, {
      ...base,
      pageBy: pageBy(false),
      steps: [strict, { ...any, unlessAllMisspelled: words }],
      lookups,
      candidateLimit: CANDIDATES,
      generation: lookups.length > 0,
      byType: { types, strict: strict.match, groups: [] },
    });
    const generation = first.find((r) => r.kind === 'g')?.json;
    if (generation) read(generation);
    const groups = groupsOf(first);
    if (!groups.length) return outcome(config, terms, first, ['all', 'any'], new Map(), origin, false, alike);
    const judged = new Set(groups.flatMap((g) => g.types));
    const absent = new Map<string, number>();
    for (const row of first) if (row.kind === 'c' && Number(row.present) === 0) absent.set(row.type!, (absent.get(row.type!) ?? 0) + 1);
    // Every word missing from a type's vocabulary: the any-word step finds nothing there worth its rows.
    const skipTypes = [...absent].filter(([type, n]) => !judged.has(type) && n >= words).map(([type]) => type);
    const fixed = groups.map(({ corrections }) => ({
      strict: correctedTermsMatch(terms, alsoMeant(synonyms, corrections)),
      any: anyTermMatch(terms, [...alike, ...[...corrections.values()].flat()]),
    }));
    const correctedStep = (pick: 'strict' | 'any'): PlanStep => ({
      match: fixed[0]![pick],
      titleMatch: anyTermMatch(terms, [...alike, ...groups.flatMap((g) => [...g.corrections.values()].flat())]),
      groups: fixed.map((f) => f[pick]),
      judgedOnly: true,
    });
    const steps = [strict, correctedStep('strict'), { ...any, ...(skipTypes.length ? { skipTypes } : {}) }, correctedStep('any')];
    const typed = typedNames(groups, judged, (completed) => (completed ? ['all', 'all', 'any', 'any'] : ['all', 'typo', 'any', 'typo']), lastTerm);
    const rows = await run(db, { ...base, pageBy: base.offset > 0 ? 'rowid' : pageBy(lastMisspelledIn(first)), steps, byType: { types, strict: strict.match, groups: groups.map((g) => g.types) } });
    return outcome(config, terms, rows, ['all', 'all', 'any', 'any'], new Map(), origin, false, alike, typed);
  }

  /** Each type's corrections from a first statement's `c` rows, grouped by them. */
  function groupsOf(rows: SearchPlanRow[]): CorrectionGroup[] {
    return correctionGroups([...candidatesByType(rows, lookups.length)].map(([type, found]) => ({ type, corrections: chooseCorrections(lookups, found, lastTerm) })));
  }

  /** Whether the last word looked up is in no page (of some type), from a first statement's `c` rows. */
  function lastMisspelledIn(rows: SearchPlanRow[]): boolean {
    return rows.some((r) => r.kind === 'c' && Number(r.present) === 0 && lookups[Number(r.step)]?.term === lastWord);
  }

  /** The coverage-ranked search of every type, each judged apart ({@link ByType}, src/db/judged-types.ts). */
  async function eachType(): Promise<SearchOutcome> {
    const strict = covering().every!;
    const judged = (groups: CorrectionGroup[], decide: boolean): Pick<SearchPlan, 'steps' | 'byType'> => {
      const corrected = groups.map((g) => covering([...g.corrections.values()].flat(), g.corrections));
      // Titles are scored by every group's words: a page's title holds its own type's corrections, if any.
      const step = { ...covering(), titleMatch: covering(groups.flatMap((g) => [...g.corrections.values()].flat())).titleMatch };
      // A type corrected for a misspelling ranks after the pages that hold every word as typed; a completion does not.
      const typoGroups = groups.flatMap((g, i) => (isCompletion(g.corrections, lastTerm) ? [] : [i + 1]));
      const byType = { types: config.types, strict, decide, groups: groups.map((g) => g.types), typoGroups };
      return { steps: [{ ...step, groups: corrected.map((c) => c.match), everyGroups: corrected.map((c) => c.every!) }], byType };
    };
    // In tiers only where the statement ranked in tiers: a type corrected for a misspelling (ByType.typoGroups).
    const answer = (rows: SearchPlanRow[], groups: CorrectionGroup[], corrected: Set<string>) =>
      outcome(config, terms, rows, ['all', 'any'], new Map(), origin, groups.some((g) => !isCompletion(g.corrections, lastTerm)) ? 'tiers' : true, [...alike, ...vocabulary], typedNames(groups, corrected, coveredNames, lastTerm));
    // Without a vocabulary in memory (one index serves every type) each entry holds only its type.
    const inMemory = config.types.map((type) => ({ type, ...correctedInMemory(db, lookups, { site: config.site, type }, lastTerm)! }));
    const memory = inMemory[0]!;
    if (memory.generation) {
      const groups = correctionGroups(inMemory);
      const lastMisspelled = inMemory.some((t) => t.lastMisspelled);
      const plan = groups.length ? judged(groups, true) : { steps: [covering()] };
      const rows = await run(db, { ...base, pageBy: base.offset > 0 && groups.length ? 'rowid' : pageBy(groups.length > 0 && lastMisspelled), generation: true, ...plan });
      const generation = rows.find((r) => r.kind === 'g')?.json ?? undefined;
      if (generation) read(generation);
      if (generation === memory.generation) return answer(rows, groups, typesCorrected(rows, groups, WIDEN_BELOW));
      // Another vocabulary than the one in memory: as if none were.
    }
    const first = await run(db, {
      ...base,
      pageBy: pageBy(false),
      steps: [covering()],
      lookups,
      candidateLimit: CANDIDATES,
      generation: true,
      byType: { types: config.types, strict, groups: [] },
    });
    const generation = first.find((r) => r.kind === 'g')?.json;
    if (generation) read(generation);
    const groups = groupsOf(first);
    if (!groups.length) return answer(first, [], new Set());
    const again = await run(db, { ...base, pageBy: base.offset > 0 ? 'rowid' : pageBy(lastMisspelledIn(first)), ...judged(groups, false) });
    return answer(again, groups, new Set(groups.flatMap((g) => g.types)));
  }
}

/** Per type that took its corrections, its steps' names and its corrections (a completion is not a correction). */
function typedNames(groups: CorrectionGroup[], corrected: Set<string>, names: (completed: boolean) => MatchStep[], lastTerm: string): TypedNames {
  const typed: TypedNames = new Map();
  for (const { types, corrections } of groups) {
    for (const type of types) if (corrected.has(type)) typed.set(type, { names: names(isCompletion(corrections, lastTerm)), corrections });
  }
  return typed;
}

/** The names of a coverage-ranked type's steps: a misspelling's pages are the later tier (steps 2–3), a completion's rank with the pages as typed. */
function coveredNames(completed: boolean): MatchStep[] {
  return completed ? ['all', 'any'] : ['all', 'any', 'typo', 'any'];
}

/** Each corrected type's step names and corrections, for a search of every type judged apart. */
type TypedNames = Map<string, { names: MatchStep[]; corrections: Map<string, string[]> }>;

/** Whether the corrections only complete the last word, typed partway: its pages have every word, as far as it was typed. */
function isCompletion(corrections: Map<string, string[]>, lastTerm: string): boolean {
  return [...corrections].every(([term, words]) => term === lastTerm && words.every((w) => completes(term, w)));
}

/**
 * The corrections of a coverage-ranked search, from the typo index in memory (`undefined` when none is loaded): the
 * words the statement's lookup would read, so the same corrections, to be applied while fewer than WIDEN_BELOW pages
 * hold every word as typed.
 */
function correctedInMemory(
  db: SearchDatabase,
  lookups: CorrectionLookup[],
  scope: { site: string; type: string },
  lastTerm: string,
): { generation: string; corrections: Map<string, string[]>; lastMisspelled: boolean } | undefined {
  const memory = latestTypoIndex(db);
  if (!memory) return undefined;
  const found = lookups.map((lookup) => memory.index.lookup(lookup, scope));
  const corrections = chooseCorrections(lookups, found.map((f) => f.candidates), lastTerm);
  return { generation: memory.generation, corrections, lastMisspelled: lookups.some(({ term }, i) => term === lastTerm && !found[i]!.present) };
}

/** Each query word's synonyms from the configuration (rule 1 applied to them too: they are quoted as phrases). */
function synonymsOf(terms: string[], configured: Readonly<Record<string, readonly string[]>>): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const term of new Set(terms)) {
    const alike = Object.hasOwn(configured, term) ? configured[term]! : [];
    if (alike.length) found.set(term, [...alike]);
  }
  return found;
}

/** Synonyms and corrections together: what each word also stands for. */
function alsoMeant(synonyms: Map<string, string[]>, corrections: Map<string, string[]>): Map<string, string[]> {
  const both = new Map(synonyms);
  for (const [term, words] of corrections) both.set(term, [...(both.get(term) ?? []), ...words]);
  return both;
}

/**
 * A search is widened (its last word completed, a word corrected, the looser steps run) only while fewer than this many
 * pages of the site and type hold every word as typed: decided on the query in the pages searched, never on the
 * `tags` or page asked, so that a tag filter only narrows and paging at any `limit` finds the same pages (issue 44).
 * The type is part of what is searched, as the site is: on a site whose types are its languages, a misspelling or a
 * word typed partway is judged in the reader's language (docs/decisions.md). The endpoint's default `limit`: a
 * default page answers as when the decision followed `limit`.
 */
const WIDEN_BELOW = DEFAULT_LIMIT;

/**
 * `weights.title` divided by this is how much a title's own bm25 adds (0.5 with the default weight of 10): scaled by
 * the title weight, so raising it makes titles count more in both parts of the score. docs/ranking.md has the measure.
 */
const TITLE_WEIGHT_DIVISOR = 20;

/**
 * How much more a page holding every word of the query counts than its bm25 says, in the coverage ranking (×1.5).
 * bm25 over the query's informative words already weighs each word a page has by how rare it is; this is the rest of
 * the evidence the old all-words-first step gave, without letting it bury a better page missing one word. Measured in
 * docs/ranking.md ("Coverage").
 */
const EVERY_WORD_BONUS = 0.5;

/**
 * How much a word of the built-in docs vocabulary counts beside the word typed it stands for (its bm25 is halved):
 * docs/ranking.md, "A docs vocabulary", has the measure.
 */
const ALIKE_WEIGHT = 0.5;

/**
 * How much a page's headings matching the query count beside its title matching it (each scored on its own length):
 * docs/ranking.md, "Sections raise pages", has the measure.
 */
const HEADING_WEIGHT = 0.5;

/** About how many words a section's snippet shows: a line under its heading, shorter than the page's snippet. */
const SECTION_SNIPPET_TOKENS = 16;

/**
 * Side tables a table written by another tool (astro-d1-search) lacks, or holds in an older shape (the sections of
 * schema version 6 and before, a row each, until the next push rebuilds them); the titles table, which indexes of
 * schema version 4 lack.
 */
const SIDE_TABLE = new RegExp(`no such table: (${[DOCS_TABLE, SECTIONS_TABLE, VOCAB_TABLE].join('|')})\\b|no such column: sections\\b`, 'i');
/** A `search_docs` of schema version 8 and before, which has no page boosts. */
const NO_BOOSTS = /no such column: d\.boost\b/i;
/** A `search_docs` of schema version 11 and before, which has no tags. */
const NO_DOC_TAGS = /no such column: d\.tags\b/i;
const TITLES = new RegExp(`no such table: ${TITLES_TABLE}\\b`, 'i');
/** An index of schema version 10 and before, which has no headings table. */
const HEADINGS = new RegExp(`no such table: ${HEADINGS_TABLE}\\b`, 'i');

async function run(db: SearchDatabase, plan: SearchPlan): Promise<SearchPlanRow[]> {
  const { sql, params } = searchStatement(plan);
  try {
    return (await db.prepare(sql).bind(...params).all<SearchPlanRow>()).results;
  } catch (e) {
    const message = String((e as Error).message);
    // One more round trip, only on such an index, until its next `site-search index` push writes the missing tables.
    if (plan.generation && /no such table: search_meta\b/i.test(message)) return run(db, { ...plan, generation: false });
    if (plan.titleWeight > 0 && TITLES.test(message)) return run(db, { ...plan, titleWeight: 0 });
    if ((plan.headingWeight ?? 0) > 0 && HEADINGS.test(message)) return run(db, { ...plan, headingWeight: 0 });
    if (plan.boosts !== false && NO_BOOSTS.test(message)) return run(db, { ...plan, boosts: false });
    if (plan.docTags !== false && NO_DOC_TAGS.test(message)) return run(db, { ...plan, docTags: false });
    if (plan.facets?.length && !plan.facetGroups && /string or blob too big/i.test(message)) return run(db, { ...plan, facetGroups: true });
    if (!plan.bare && SIDE_TABLE.test(message)) return run(db, { ...plan, bare: true });
    throw e;
  }
}

/** The ranking a search statement returned: its `k` rows when it has them, else its page, which is all of it. */
function rankingOf(rows: SearchPlanRow[], together: Together): RankedRow[] {
  const whole = rows.filter((r) => r.kind === 'k');
  const first = (step: number) => (together === 'tiers' ? tierOf(step) : together ? 0 : step);
  return (whole.length ? whole : rows.filter((r) => r.kind === 'r'))
    .map((r): RankedRow => [Number(r.id), Number(r.step), Number(r.score)])
    .sort((a, b) => first(a[1]) - first(b[1]) || a[2] - b[2] || a[0] - b[0]);
}

/**
 * How a statement's steps rank: as gates (`false`: a stricter step's pages first), together (`true`: one coverage
 * ranking), or in tiers (`'tiers'`: a query without a type judged per type, coverage-ranked, where steps 0–1 are the
 * pages of the types searched as typed and 2–3 those of the types corrected for a misspelling). In tiers, the pages
 * that hold every word as typed (step 0) come first, then all the others ranked together: a page of one type found
 * through a correction never outranks a page of another that has what the reader typed, yet still outranks a page
 * holding only some of the words.
 */
type Together = boolean | 'tiers';

/** A step's tier ({@link Together}). */
function tierOf(step: number): number {
  return step > 0 ? 1 : 0;
}

/** The results of a search statement, as the endpoint returns them. */
function outcome(
  config: ResolvedConfig,
  terms: string[],
  rows: SearchPlanRow[],
  names: MatchStep[],
  corrections: Map<string, string[]>,
  origin: string | undefined,
  together: Together = false,
  alike: string[] = [],
  byType?: TypedNames,
): SearchOutcome {
  const ranking = rankingOf(rows, together);
  const byId = new Map(rows.filter((r) => r.kind === 'r').map((r) => [Number(r.id), r]));
  const namesOf = (type: string | null | undefined) => byType?.get(type ?? '')?.names ?? names;
  // Steps that are gates place a looser step's scores after the stricter ones'; one ranking needs no placing.
  const factors = together === 'tiers' ? tierFactors(ranking) : together ? new Map<number, number>() : placementFactors(stepSpans(ranking));
  const found = ranking.filter(([id]) => byId.has(id)).map(([id, step, score]) => ({ ...byId.get(id)!, id, step, score }));
  const suggested = byType?.size ? typedSuggestion(ranking[0], byId.get(ranking[0]?.[0] ?? 0) ?? rows.find((r) => r.kind === 'b'), byType) : ranking.some(([, step]) => names[step] === 'typo') ? corrections : undefined;
  const suggestion = suggested ? terms.map((t) => suggested.get(t)?.[0] ?? t).join(' ') : undefined;
  // Pages found through a correction have the corrected word, not the typed one, in their sections.
  const meant = [...terms.flatMap(wordsOf), ...[corrections, ...[...(byType?.values() ?? [])].map((t) => t.corrections)].flatMap((c) => [...c.values()].flat())];
  const words = sectionWords([...meant, ...alike.flatMap((a) => a.split(' '))]);
  // Whether a section holds more of the query than the page's introduction counts the words meant, not their synonyms.
  const typed = sectionWords(meant);
  const absoluteUrl = urlResolver(origin);
  const results = found.map((row): SearchResult => {
      const snippet = escapeSnippet(removeWordBreaks(row.snippet || excerpt(row.description ?? '', config.snippetTokens)));
      const url = absoluteUrl(row.url ?? '');
      const matched = matchingSections(row.json, words, Math.max(1, config.sections), typed);
      const sections = config.sections > 0 && matched.length ? { sections: matched.map((s) => ({ ...sectionOf(s, url).section!, snippet: escapeSnippet(sectionSnippet(s.lead, words, SECTION_SNIPPET_TOKENS)) })) } : {};
      return {
        title: removeWordBreaks(row.title ?? ''),
        url,
        type: row.type ?? '',
        date: row.date ?? '',
        tags: removeWordBreaks(row.tags ?? ''),
        emoji: row.emoji ?? '',
        snippet,
        score: row.score * (factors.get(row.step) ?? 1),
        match: namesOf(row.type)[row.step]!,
        ...sectionOf(sectionToLink(matched[0], `${row.title ?? ''} ${row.description ?? ''}`, typed), url),
        ...sections,
      };
    });
  const facets = facetsOfRows(rows);
  return suggestion === undefined ? { results, facets } : { results, suggestion, facets };
}

/**
 * The corrections a search of every type judged apart suggests: those of the type of its best result (`first` of the
 * ranking; `best` its row, or past the page asked the statement's `b` row, its type alone), when that result was found
 * through a correction. Only the best result decides: a page found as typed ranks first when any type holds the words,
 * and then the reader typed a word the site has. Every page of the answer suggests the same.
 */
function typedSuggestion(first: RankedRow | undefined, best: SearchPlanRow | undefined, typed: TypedNames): Map<string, string[]> | undefined {
  const found = typed.get(best?.type ?? '');
  return found?.names[first?.[1] ?? 0] === 'typo' ? found.corrections : undefined;
}

/** Each step's factor when the steps rank in tiers: a tier's scores placed after the tier before ({@link placementFactors}). */
function tierFactors(ranking: RankedRow[]): Map<number, number> {
  const byTier = placementFactors(stepSpans(ranking.map(([id, step, score]): RankedRow => [id, tierOf(step), score])));
  return new Map([0, 1, 2, 3].map((step) => [step, byTier.get(tierOf(step)) ?? 1]));
}

/** Each step's best and worst score in the ranking, in step order. */
function stepSpans(ranking: RankedRow[]): [step: number, best: number, worst: number][] {
  const spans = new Map<number, [number, number, number]>();
  for (const [, step, score] of ranking) {
    const span = spans.get(step);
    spans.set(step, span ? [step, Math.min(span[1], score), Math.max(span[2], score)] : [step, score, score]);
  }
  return [...spans.values()].sort((a, b) => a[0] - b[0]);
}

/**
 * A looser step's scores come from another match expression and do not compare with a stricter step's, yet results
 * must stay in ascending score order. Each step's scores are scaled (order kept) so its best lands just behind the
 * stricter steps' worst. Documents found by the literal query itself keep their score exactly.
 */
function placementFactors(spans: [step: number, best: number, worst: number][]): Map<number, number> {
  const factors = new Map<number, number>();
  let worstBefore: number | undefined;
  for (const [step, best, worst] of spans) {
    const factor = worstBefore !== undefined && best < worstBefore ? (worstBefore / best) * (1 - 1e-9) : 1;
    factors.set(step, factor);
    worstBefore = worst * factor;
  }
  return factors;
}

/**
 * A page's description, standing in for an empty snippet (a page matched by its title alone), bounded like a snippet:
 * about `tokens` words, cut at a space.
 */
function excerpt(description: string, tokens: number): string {
  const max = tokens * 12;
  if (description.length <= max) return description;
  const cut = description.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\uD800-\uDBFF]$/, '')}…`;
}

const MS_PER_DAY = 86_400_000;

function dayNumber(date: Date): number {
  return Math.floor(date.getTime() / MS_PER_DAY);
}
