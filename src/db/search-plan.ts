import type { Bind, SqlValue } from './types.js';
import { DAY_OF_DATE, DOCS_TABLE, HEADINGS_TABLE, SECTIONS_TABLE, TABLE, TITLES_TABLE, VOCAB_GENERATION_QUERY, VOCAB_TABLE } from './schema.js';
import { MARK_CLOSE_CODE, MARK_OPEN_CODE } from '../text/marks.js';
import { facetStatementParts, tagConditions, tagsColumn, type FacetScope } from './facet-sql.js';
import { everyType, inTypes, judgedMatch, judgedTable, leveledMatch, levelsTable, typeBelow, typeCountTable, type ByType, type TypedMatch } from './judged-types.js';

/** One step of a search: an FTS5 match expression, run only while the steps before it found fewer than `widenBelow`. */
export interface PlanStep {
  match: string;
  /**
   * Run only when every word looked up in `lookups` is in the index: when one is not (likely misspelled), the caller
   * searches again with its corrections, and this step's rows would be read for nothing.
   */
  unlessMisspelled?: boolean;
  /** The expression the step's words are found by in titles (any of them): what the title score counts. */
  titleMatch?: string;
  /**
   * Coverage ranking, for a plan of this one step: the expression a page holding the whole query matches. Every page
   * the step's `match` finds is ranked together, a page matching this one with its score multiplied by
   * `1 + everyWordBonus`; its rows say which (`step` 0 when it holds every word, else 1). The first statement reads
   * the corrections when fewer than `widenBelow` pages hold every word, as it does after a strict first step.
   */
  every?: string;
  /**
   * Words the query stands for beside its own (a docs vocabulary's), as an expression: they are in `match`, and count
   * `alikeWeight` of what the words typed count (their bm25, read apart, is taken back in part).
   */
  alike?: string;
  /** With {@link SearchPlan.byType}: this step's expression for each group of corrected types, in the groups' order. */
  groups?: string[];
  /** With `groups`: each group's {@link every}. */
  everyGroups?: string[];
  /** With `groups`: the step runs in the corrected types only (it is their correction). */
  judgedOnly?: boolean;
  /** With {@link SearchPlan.byType}: types the step does not run in (every word of the query is misspelled there). */
  skipTypes?: string[];
  /**
   * With {@link SearchPlan.byType} and `lookups`: the step runs only in the types where fewer than this many words
   * looked up are missing from the type's vocabulary (the query's distinct words: not all of them misspelled).
   */
  unlessAllMisspelled?: number;
}

/**
 * What one search statement is asked: the steps in order, the page, and how rows are scored; the tags every match
 * carries and the facets counted over the matches ({@link FacetScope}).
 */
export interface SearchPlan extends FacetScope {
  /** Strictest first; at most 4 (D1 allows 5 terms in a compound SELECT). */
  steps: PlanStep[];
  limit: number;
  offset: number;
  /**
   * A later step runs, and the words are looked up for corrections, only while fewer than this many pages of the site
   * and type match the stricter steps (or hold every word): counted whatever the `tags` and page asked, so that a tag
   * filter or a page size never widens the search (issue 44). Default: `limit`.
   */
  widenBelow?: number;
  /** Day number recency is measured from. */
  today: number;
  weights: { title: number; description: number; content: number; tags: number };
  recency: { boost: number; windowDays: number };
  /** Types whose rows rank as undated (sources with `recency: false`). */
  undatedTypes: string[];
  /**
   * How much the bm25 of the title alone adds to the row's bm25 (0: FTS5's bm25 of the row only, the literal
   * formula). Pages whose title matches no word add nothing.
   */
  titleWeight: number;
  /**
   * How much the bm25 of the page's headings alone adds, like `titleWeight` (0: nothing; an index without the headings
   * table is searched without). Each heading is a short title of part of the page: a long page whose section answers
   * the query ranks like a short page about it.
   */
  headingWeight?: number;
  snippetTokens: number;
  /** Read each page's `boost` from `search_docs` (default); `false` for an index written before it had them. */
  boosts?: boolean;
  /** How much more a page holding every word counts in a coverage-ranked plan (see {@link PlanStep.every}). */
  everyWordBonus?: number;
  /** With a step's `alike`: how much its words count beside the words typed (1: as much). */
  alikeWeight?: number;
  /**
   * The database bills every row a statement reads (D1), and its CPU time is small beside a round trip: titles are
   * scored without first being filtered by type through `search_docs` (a row read per title). The caller finds the
   * page by rowid there too (`pageBy`).
   */
  rowsBilled?: boolean;
  /**
   * How the page's rows are found again in FTS5 for their text and snippets: `rowid` looks each one up (two rows read
   * each; FTS5 sets the expression up once per row, which for a prefix longer than `PREFIX_INDEX_MAX` means merging
   * every word that starts with it, each time), `range` reads every match between the page's first and last rowid with the expression
   * set up once. Same rows, same snippets.
   */
  pageBy?: 'range' | 'rowid';
  /**
   * Words that may be misspelled (`term`, as the vocabulary spells words: lowercase), each with the trigram expression
   * that finds the vocabulary words containing it (`in`: it is in the index) and the one that finds the words it may
   * have been meant as (`near`), read only when the word itself is not in the vocabulary. Read only when the first step
   * found fewer than `widenBelow`, so a correction never costs a round trip of its own.
   */
  lookups?: { term: string; in: string; near: string }[];
  /** Vocabulary words read per lookup. */
  candidateLimit?: number;
  /**
   * Also read the vocabulary's generation (a `g` row): which vocabulary the typo index kept in memory must be of for
   * its corrections to be this snapshot's, read in the same statement so that it costs no round trip.
   */
  generation?: boolean;
  /**
   * An expression whose matches in the site and type are counted, up to `widenBelow` (an `s` row, the count in `score`): whether
   * fewer than that many pages hold every word of the query as typed, the condition under which a search is corrected,
   * checked in the statement that already ranks the corrected query.
   */
  strictCheck?: string;
  /**
   * Read only the FTS5 table: for a table written by another tool (astro-d1-search), which has none of the side
   * tables. Rows rank exactly as with them; there are no sections and no corrections.
   */
  bare?: boolean;
  /**
   * No type asked, on a site of several: each type judged as `type=` judges it (issue 44; {@link ByType}): looked up,
   * corrected and widened apart, each step after the first running in the types whose stricter steps found too little.
   */
  byType?: ByType;
}

/**
 * A row of the search statement: a result on the page (`r`), one looked-up word (`c`), or one row of the whole
 * ranking (`k`: only when the page starts after the first result), and then the best result's type (`b`, judged by type).
 */
export interface SearchPlanRow {
  kind: 'r' | 'c' | 'k' | 'g' | 's' | 'f' | 't' | 'b';
  /** `r`, `k`: the page's rowid. */
  id: number | null;
  /** `r`, `k`: its score in the step that found it (bm25 × recency, before placing it after the stricter steps). */
  score: number | null;
  /** `r`, `k`: the step that found it; `c`: the index of the lookup. */
  step: number | null;
  /** `c`: 1 when the word is in the index (it matches a page on its own), else 0. */
  present: number | null;
  title: string | null;
  url: string | null;
  type: string | null;
  date: string | null;
  tags: string | null;
  emoji: string | null;
  description: string | null;
  snippet: string | null;
  /**
   * `r`: the page's sections, a JSON array of `[heading, anchor, folded start of the text]` in page order;
   * `c`: the vocabulary words near it, a JSON array; `g`: the vocabulary's generation; `f`, `t`: a type or a tag
   * counted (how many matches have it in `score`).
   */
  json: string | null;
}

/** A row of the ranking: its rowid, the step that found it and its score there. */
export type RankedRow = [id: number, step: number, score: number];

/**
 * One statement for a whole search, so a search on D1 is one round trip: each step ranks its top `offset + limit`
 * (bm25 × recency, exactly), a row belongs to the first step that found it, the ranking is the steps in order (each
 * by score) cut at `offset + limit`, and the page's details, snippets and sections are read, all in one snapshot of
 * the index. The caller orders the page's rows by step and score and places each step's scores after the stricter
 * steps'.
 *
 * What it costs is what D1 bills: every row read, including those of the statement's own intermediate tables. So a
 * step that is not needed reads nothing (its `LIMIT` is 0, which SQLite decides before it reads a row; a `WHERE`
 * condition on a sub-select would not stop the scan), and each intermediate table is read as few times as it can be.
 * Each common table expression is copied wherever it is named, and SQLite refuses a statement whose copies add up to
 * 1,000 cursors, so steps are named only where needed. The user's words and numbers are all bound; only configuration
 * numbers are written into the SQL.
 */
export function searchStatement(plan: SearchPlan): { sql: string; params: SqlValue[] } {
  const { values, bind } = binder();
  const w = writing(plan, bind);
  const ctes: string[] = [...typeTables(w)];
  if (w.coverage.table) ctes.push(`every0 AS MATERIALIZED (SELECT id FROM (${matchQuery(plan, w.coverage.every!, bind, w.typed?.every)}))`);
  if (w.coverage.table && w.lookups.length) ctes.push(lookupsTable(w));
  const fields = shortFields(plan);
  const titles = titleTables(w, fields);
  ctes.push(...titles.ctes);
  ctes.push(...stepTables(w, fields, titles.names));
  const ranking = rankingTables(w);
  ctes.push(...ranking.ctes);
  const parts = [pageRows(w, ranking.page), ...sideRows(w)];
  const facets = plan.facets?.length ? facetStatementParts(plan, w.typed ? typedFacetMatch(w) : facetMatch(w), bind) : { ctes: [] };
  if (plan.facets?.length && w.typed && plan.steps.length > 1) ctes.push(levelsTable(plan.steps.length - 1));
  ctes.push(...facets.ctes);
  if (facets.part) parts.push(facets.part);
  return inTextOrder(`WITH ${ctes.join(',\n')}\n${parts.join('\nUNION ALL\n')}`, values);
}

/**
 * Values are bound where they appear in the text, which is not the order the text is built in: `bind` leaves a
 * marker, and the markers become `?` in text order at the end ({@link inTextOrder}).
 */
function binder(): { values: SqlValue[]; bind: Bind } {
  const values: SqlValue[] = [];
  return { values, bind: (...vs) => vs.map((v) => `\u0000${values.push(v) - 1}\u0000`).join(', ') };
}

function inTextOrder(text: string, values: SqlValue[]): { sql: string; params: SqlValue[] } {
  const params: SqlValue[] = [];
  const sql = text.replace(/\u0000(\d+)\u0000/g, (_, i: string) => {
    params.push(values[Number(i)]!);
    return '?';
  });
  return { sql, params };
}

/** What every part of one statement reads: the plan, its bound numbers, and the decisions made once. */
interface Writing {
  plan: SearchPlan;
  bind: Bind;
  /** The bound `offset + limit`: how many rows the ranking keeps. */
  k: string;
  /** How many rows each step ranks (bound): `k`, and without tags at least `widenBelow`, so its table tells whether to widen. */
  depth: string;
  /** `widenBelow`: fewer pages than this in the site, and the search widens. */
  enough: number;
  /** Whether `tags` narrows the steps: then the matches of the site and type are counted apart to decide. */
  filtered: boolean;
  lookups: NonNullable<SearchPlan['lookups']>;
  coverage: Coverage;
  /** Each type judged apart ({@link SearchPlan.byType}): where each step's matches, and the every-word pages, are found. */
  typed?: { steps: TypedMatch[]; every: TypedMatch };
}

function writing(plan: SearchPlan, bind: Bind): Writing {
  const k = boundCount(bind, plan.offset + plan.limit);
  const enough = plan.widenBelow ?? plan.limit;
  const filtered = Boolean(plan.tags?.length);
  const depth = filtered ? k : boundCount(bind, Math.max(plan.offset + plan.limit, enough));
  const typed = plan.byType ? typedMatches(plan, bind) : undefined;
  return { plan, bind, k, depth, enough, filtered, lookups: plan.bare ? [] : (plan.lookups ?? []), coverage: coverageOf(plan, bind), typed };
}

/** Where each step of a plan judged by type finds its rows: its groups' expressions, in the types it runs in. */
function typedMatches(plan: SearchPlan, bind: Bind): NonNullable<Writing['typed']> {
  const source = (step: PlanStep, match: string, groups: string[] | undefined) =>
    groups?.length ? judgedMatch([step.judgedOnly ? undefined : match, ...groups], bind) : everyType(bind(match));
  const first = plan.steps[0]!;
  return {
    steps: plan.steps.map((step, i) => (i === 0 ? source(step, step.match, step.groups) : inTypes(source(step, step.match, step.groups), `type_runs WHERE r${i}`))),
    every: source(first, first.every ?? first.match, first.everyGroups),
  };
}

/** Each step's expression per group (index 0: the types in no group; `undefined` where it does not run). */
function groupExpressions(plan: SearchPlan, step: PlanStep): (string | undefined)[] {
  return [step.judgedOnly ? undefined : step.match, ...(plan.byType?.groups ?? []).map((_, k) => step.groups?.[k] ?? step.match)];
}

/** The steps `0…n-1` together, per group: any of their expressions. */
function stepsUpTo(plan: SearchPlan, n: number): (string | undefined)[] {
  const per = plan.steps.slice(0, n).map((step) => groupExpressions(plan, step));
  return per[0]!.map((_, k) => {
    const all = [...new Set(per.map((e) => e[k]).filter((e) => e !== undefined))];
    return all.length === 0 ? undefined : all.length === 1 ? all[0] : all.map((e) => `(${e})`).join(' OR ');
  });
}

/** Each type's strict count and the types that take a group's corrections ({@link ByType}), first in the statement. */
function typeTables(w: Writing): string[] {
  const { plan, bind } = w;
  if (!plan.byType) return [];
  const counted = w.lookups.length > 0 || plan.byType.decide || plan.steps.length > 1;
  return [
    ...(counted ? [typeCountTable('type_strict', everyType(bind(plan.byType.strict)), scopeColumn(plan, 'type'), siteOf(w), !plan.bare && !plan.rowsBilled)] : []),
    judgedTable(plan.byType, bind(w.enough), bind),
  ];
}

/** The site condition of a query over the full-text table (`f`). */
function siteOf(w: Writing): string {
  return w.plan.site ? ` AND ${scopeColumn(w.plan, 'site')} = ${w.bind(w.plan.site)}` : '';
}

/**
 * The types each later step runs in, judged by type (`type_runs`, a column `r{i}` per step): those whose pages the
 * steps before found fewer than `widenBelow` of (counted per type, each with its group's expressions), where the step
 * before ran, and (a step `unlessMisspelled`) where every word looked up is in the type's vocabulary. Each condition is
 * read once (`type_steps`) and chained in a table of its own: every table a statement names is copied where it is
 * named, and SQLite refuses a statement whose copies add up to 1,000 cursors.
 */
function typesTables(w: Writing): string[] {
  const { plan, bind } = w;
  const ctes: string[] = [];
  const conditions: string[] = [];
  for (let i = 1; i < plan.steps.length; i++) {
    const step = plan.steps[i]!;
    const before = stepsUpTo(plan, i);
    const strictOnly = before.every((e) => e === plan.byType!.strict);
    if (!strictOnly) ctes.push(typeCountTable(`counts${i}`, judgedMatch(before, bind), scopeColumn(plan, 'type'), siteOf(w), !plan.bare && !plan.rowsBilled));
    const own = [typeBelow('t.value', bind(w.enough), strictOnly ? 'type_strict' : `counts${i}`)];
    if (step.unlessMisspelled && w.lookups.length) own.push(`coalesce((SELECT min(present) FROM lookups WHERE type = t.value), 1) = 1`);
    if (step.skipTypes?.length) own.push(`t.value NOT IN (SELECT value FROM json_each(${bind(JSON.stringify(step.skipTypes))}))`);
    if (step.unlessAllMisspelled && w.lookups.length) own.push(`coalesce((SELECT sum(1 - present) FROM lookups WHERE type = t.value), 0) < ${bind(step.unlessAllMisspelled)}`);
    conditions.push(`(${own.join(' AND ')}) AS c${i}`);
  }
  ctes.push(`type_steps AS MATERIALIZED (SELECT t.value AS type, coalesce((SELECT grp FROM judged WHERE type = t.value), 0) AS k, ${conditions.join(', ')}
      FROM json_each(${bind(JSON.stringify(plan.byType!.types))}) t)`);
  const runs: string[] = [];
  for (let i = 1; i < plan.steps.length; i++) {
    // The step before that runs in the type ran there (a step of the corrected types only stands aside for the others).
    runs.push(`(c${i}${plan.steps[i]!.judgedOnly ? ' AND k > 0' : ''}${i > 1 ? ` AND ${ranBefore(plan, i, runs)}` : ''})`);
  }
  ctes.push(`type_runs AS MATERIALIZED (SELECT type, k, ${runs.map((r, i) => `${r} AS r${i + 1}`).join(', ')} FROM type_steps)`);
  for (let i = 1; i < plan.steps.length; i++) ctes.push(`runs${i} AS MATERIALIZED (SELECT coalesce(max(r${i}), 0) AS go FROM type_runs)`);
  return ctes;
}

/** Whether the last step before step i that runs in the type ran there (true when none after the first): `runs[j - 1]` is step j's. */
function ranBefore(plan: SearchPlan, i: number, runs: string[]): string {
  const last = (judged: boolean) => {
    for (let j = i - 1; j >= 1; j--) if (judged || !plan.steps[j]!.judgedOnly) return runs[j - 1]!;
    return '1';
  };
  const [judged, other] = [last(true), last(false)];
  return judged === other ? judged : `CASE WHEN k > 0 THEN ${judged} ELSE ${other} END`;
}

/** What facets count in a plan judged by type: each type's pages matched by the steps that ran in it. */
function typedFacetMatch(w: Writing): TypedMatch {
  const { plan, bind } = w;
  if (plan.steps.length === 1) return w.typed!.steps[0]!;
  return leveledMatch(plan.steps.map((_, m) => stepsUpTo(plan, m + 1)), bind);
}

/**
 * A row count bound for a LIMIT or OFFSET, as an expression rather than a bare parameter: SQLite (3.47 and later) plans
 * a LIMIT by the integer bound to a bare `?` and so marks the statement to be compiled again whenever that parameter is
 * bound, which a reused statement is at every run. The search statement took longer to compile (about 1 ms at 10,000
 * pages) than many searches take to run.
 */
function boundCount(bind: Bind, n: number): string {
  return `CAST(${bind(n)} AS INTEGER)`;
}

/**
 * Whether fewer than `enough` pages of the site and type match these expressions together (SQL), whatever the tags and
 * page asked: what decides whether a search widens (issue 44). Without tags, the steps' own tables (each at least
 * `enough` deep) tell; with them, the matches are counted beside them, up to `enough`, in the same statement.
 */
function fewerThanEnough(w: Writing, tables: string[], matches: string[]): string {
  const count = w.filtered
    ? siteMatches(w.plan, matches, w.enough, w.bind)
    : `(SELECT count(*) FROM ${tables.length === 1 ? tables[0] : `(${tables.map((t) => `SELECT id FROM ${t}`).join(' UNION ')})`})`;
  return `${count} < ${w.bind(w.enough)}`;
}

/**
 * How many pages of the searched site and type the expressions match together, counted up to `most`, whatever the
 * tags asked. No order, so the count stops reading at `most`.
 */
function siteMatches(plan: SearchPlan, matches: string[], most: number, bind: Bind): string {
  const match = matches.length === 1 ? matches[0]! : matches.map((m) => `(${m})`).join(' OR ');
  const scoped = [plan.site ? ` AND ${scopeColumn(plan, 'site')} = ${bind(plan.site)}` : '', plan.type ? ` AND ${scopeColumn(plan, 'type')} = ${bind(plan.type)}` : ''].join('');
  const join = scoped && !plan.bare && !plan.rowsBilled ? ` LEFT JOIN ${DOCS_TABLE} d ON d.id = f.rowid` : '';
  return `(SELECT count(*) FROM (SELECT f.rowid FROM ${TABLE} f${join} WHERE ${TABLE} MATCH ${bind(match)}${scoped} LIMIT ${boundCount(bind, most)}))`;
}

/** Coverage ranking: one step ranks every candidate; a page with every word counts more, and says so in its step. */
interface Coverage {
  /** The expression a page holding every word matches (none: the steps are gates). */
  every?: string;
  /** Whether pages holding every word are a table of their own (`every0`), read apart from the step's matches. */
  table: boolean;

  /** The factor a page's score is multiplied by (SQL, with its leading ` * `; empty without coverage). */
  covered: (id: string) => string;
  /** The step column a page's row says (SQL, with its leading comma; empty without coverage). */
  stepOf: (id: string) => string;
  /**
   * Whether the step column says the type's correction ({@link ByType.typoGroups}): 0–1 as typed, 2–3 corrected; then
   * step 0 (every word as typed) ranks first, the rest together after it.
   */
  tiers: boolean;
}

function coverageOf(plan: SearchPlan, bind: Bind): Coverage {
  const every = plan.steps.length === 1 ? plan.steps[0]!.every : undefined;
  // A query of one word: every page the step finds holds every word. Reading its matches a second time for that would
  // double what the search reads (D1 bills each row).
  const first = plan.steps[0]!;
  const matched = every !== undefined && every === first.match && (first.groups ?? []).every((g, k) => g === first.everyGroups?.[k]);
  const bonus = 1 + (plan.everyWordBonus ?? 0);
  // Judged by type: a row of a type corrected for a misspelling is a step later by 2, and the pages that hold every word
  // as typed (step 0) rank before all others.
  const typos = every !== undefined && plan.byType?.typoGroups?.length ? plan.byType.typoGroups : undefined;
  const tier = typos ? `(CASE WHEN m.grp IN (SELECT value FROM json_each(${bind(JSON.stringify(typos))})) THEN 2 ELSE 0 END) + ` : '';
  return {
    every,
    table: every !== undefined && !matched,
    tiers: typos !== undefined,
    covered: (id) => (every === undefined ? '' : matched ? ` * ${bonus}` : ` * (CASE WHEN ${id} IN (SELECT id FROM every0) THEN ${bonus} ELSE 1.0 END)`),
    stepOf: (id) => (every === undefined ? '' : matched ? `, ${tier}0 AS step` : `, ${tier}(CASE WHEN ${id} IN (SELECT id FROM every0) THEN 0 ELSE 1 END) AS step`),
  };
}

/** Whether step i runs (SQL): the steps before it found fewer than `widenBelow` distinct pages of the site and type. */
function runs(w: Writing, i: number): string {
  const before = w.plan.steps.slice(0, i);
  const found = fewerThanEnough(w, before.map((_, j) => `step${j}`), before.map((s) => s.match));
  return w.plan.steps[i]!.unlessMisspelled && w.lookups.length ? `${found} AND coalesce((SELECT min(present) FROM lookups), 1) = 1` : found;
}

/** Whether step i ran: each decision is read from a one-row table, computed once, read where it is needed. */
function ran(i: number): string {
  return `(SELECT go FROM runs${i})`;
}

/** The vocabulary of this site and type (a misspelling is judged against the pages searched). */
function scope(w: Writing, type?: string): string {
  const typed = type ?? (w.plan.type ? w.bind(w.plan.type) : undefined);
  return [w.plan.site ? ` AND site = ${w.bind(w.plan.site)}` : '', typed ? ` AND type = ${typed}` : ''].join('');
}

/**
 * The words looked up, read only when the corrections are waited for: fewer than `widenBelow` pages with every word
 * (a misspelled word is in none). A word is in the index when a word of the vocabulary of this site and type contains it
 * (its trigrams, accents aside): a few index reads, where the full-text table would read every page the word is on in
 * any type. A word that is itself in the vocabulary has no correction to look for: its candidates are not read.
 */
function lookupsTable(w: Writing): string {
  const byType = w.plan.byType;
  // Without a type, on a site of several: each word looked up in each type that has too few strict pages.
  const strictCount = byType ? typeBelow('t.value', w.bind(w.enough)) : fewerThanEnough(w, [w.coverage.table ? 'every0' : 'step0'], [w.coverage.every ?? w.plan.steps[0]!.match]);
  const types = byType ? ` CROSS JOIN json_each(${w.bind(JSON.stringify(byType.types))}) t` : '';
  return `lookups AS MATERIALIZED (SELECT i, near, present, ${byType ? 'lt' : 'NULL'} AS type, present AND EXISTS (SELECT 1 FROM ${VOCAB_TABLE}
          WHERE ${VOCAB_TABLE} MATCH word_in AND term = word${scope(w, byType ? 'lt' : undefined)}) AS known
        FROM (SELECT CAST(j.key AS INTEGER) AS i, json_extract(j.value, '$[0]') AS word_in, json_extract(j.value, '$[1]') AS near,
          json_extract(j.value, '$[2]') AS word, ${byType ? 't.value' : 'NULL'} AS lt,
          EXISTS (SELECT 1 FROM ${VOCAB_TABLE} WHERE ${VOCAB_TABLE} MATCH json_extract(j.value, '$[0]')${scope(w, byType ? 't.value' : undefined)}) AS present
        FROM json_each(${w.bind(JSON.stringify(w.lookups.map((l) => [l.in, l.near, l.term])))}) j${types} WHERE ${strictCount}))`;
}

/**
 * Title scores. Locally, the first step scores the titles of the pages it matched only: a title expression holds any
 * of the words, so with a common one ("a", "how") it matches most titles, and scoring them all cost more than ranking
 * the pages every word is on. The later steps (and every step where rows read are billed, on D1, as the first step's
 * matches kept for the titles would be read again, each a billed row) share a table per distinct title expression
 * over all titles: their matches are most pages anyway, and a step's own would nest the statement deeper than SQLite
 * allows (each step's decision reads the steps before it). For the same reason a corrected search's statement (four
 * steps) keeps the shared table for its first step too: better-sqlite3's SQLite refused it.
 */
function titlesOfMatches(plan: SearchPlan): boolean {
  return plan.titleWeight > 0 && !plan.bare && !plan.rowsBilled && plan.steps.length <= 2 && plan.steps[0]!.titleMatch !== undefined;
}

/** The shared tables of short-field scores, one set per distinct title expression: their names by expression. */
function titleTables(w: Writing, fields: ShortField[]): { ctes: string[]; names: Map<string, string[]> } {
  const { plan, bind } = w;
  const ctes: string[] = [];
  const names = new Map<string, string[]>();
  for (const [i, { titleMatch }] of plan.steps.entries()) {
    if (titleMatch === undefined || names.has(titleMatch) || (i === 0 && titlesOfMatches(plan)) || fields.length === 0) continue;
    const n = names.size;
    names.set(titleMatch, fields.map((f) => `${f.table}${n}`));
    // Only the titles of the pages searched (this site and type) are scored and kept: the others join no row, and
    // scoring every title with a common word cost more than ranking the pages (a page missing from search_docs,
    // which no push of this schema leaves, keeps its title).
    const scoped = plan.rowsBilled ? [] : [plan.site ? ['site', plan.site] : undefined, plan.type ? ['type', plan.type] : undefined].filter((f) => f !== undefined);
    for (const { table } of fields) {
      const join = scoped.length ? ` t LEFT JOIN ${DOCS_TABLE} d ON d.id = t.rowid` : '';
      const filters = scoped.map(([column, value]) => ` AND (d.id IS NULL OR d.${column} = ${bind(value!)})`).join('');
      ctes.push(`${table}${n} AS MATERIALIZED (SELECT ${scoped.length ? 't.' : ''}rowid AS id, bm25(${table}) AS bm FROM ${table}${join} WHERE ${table} MATCH ${bind(titleMatch)}${filters})`);
    }
  }
  return { ctes, names };
}

/** Each step's ranked rows (`step0`…), the decisions whether the later ones run, and the lookups after the first. */
function stepTables(w: Writing, fields: ShortField[], titleNames: Map<string, string[]>): string[] {
  const { plan, bind, depth, coverage } = w;
  const ctes: string[] = [];
  plan.steps.forEach((step, i) => {
    if (i === 1 && w.typed) ctes.push(...typesTables(w));
    if (i > 0 && !w.typed) ctes.push(`runs${i} AS MATERIALIZED (SELECT ${runs(w, i)} AS go)`);
    const alike = alikeField(plan, step, i);
    if (alike) ctes.push(`${alike.name} AS MATERIALIZED (SELECT id, bm FROM (${matchQuery(plan, step.alike!, bind)}))`);
    if (i === 0 && titlesOfMatches(plan)) {
      ctes.push(...firstStepOfMatches(w, step, fields, alike));
    } else {
      const names = step.titleMatch === undefined ? undefined : titleNames.get(step.titleMatch);
      const joined = [...(names ? fields.map((f, j) => ({ ...f, name: names[j]! })) : []), ...(alike ? [alike] : [])];
      const extra = i === 0 ? { factor: coverage.covered('m.id'), columns: coverage.stepOf('m.id'), order: stepOrder(w) } : undefined;
      ctes.push(`step${i} AS MATERIALIZED (${rankQuery(plan, step.match, joined, bind, i === 0 ? depth : `(CASE WHEN ${ran(i)} THEN ${depth} ELSE 0 END)`, extra, w.typed?.steps[i])})`);
    }
    // The words are looked up only when the first step found too little (a misspelled word is never in a page, so
    // the first step finding enough means there is none).
    if (i === 0 && w.lookups.length && !coverage.table) ctes.push(lookupsTable(w));
  });
  return ctes;
}

/** The first step, its short fields scored for the pages it matched only ({@link titlesOfMatches}). */
function firstStepOfMatches(w: Writing, step: PlanStep, fields: ShortField[], alike: JoinedField | undefined): string[] {
  const { plan, bind, depth, coverage } = w;
  const ctes = [`matched AS MATERIALIZED (${matchQuery(plan, step.match, bind, w.typed?.steps[0])})`];
  for (const { table } of fields) {
    ctes.push(`matched_${table} AS MATERIALIZED (SELECT t.rowid AS id, bm25(${table}) AS bm FROM ${table} t
        WHERE ${table} MATCH ${bind(step.titleMatch!)} AND +t.rowid IN (SELECT id FROM matched))`);
  }
  const joined = [...fields.map((f) => ({ ...f, name: `matched_${f.table}` })), ...(alike ? [alike] : [])];
  ctes.push(`step0 AS MATERIALIZED (SELECT m.id AS id, (${fieldScore(joined)})${coverage.covered('m.id')}${boostOf(plan)}${recencyOf(plan, bind, 'm.day')} AS score${coverage.stepOf('m.id')}
        FROM matched m${fieldJoins(joined)} ORDER BY ${stepOrder(w)} LIMIT ${depth})`);
  return ctes;
}

/**
 * The bm25 of a step's `alike` words read apart, joined with a negative weight: bm25 sums a part per phrase, so taking
 * back `1 - alikeWeight` of theirs leaves them counting `alikeWeight` of a word typed.
 */
function alikeField(plan: SearchPlan, step: PlanStep, i: number): JoinedField | undefined {
  const weight = plan.alikeWeight ?? 1;
  if (step.alike === undefined || weight >= 1 || plan.bare) return undefined;
  return { table: TABLE, weight: -(1 - weight), name: `alike${i}` };
}

/** The order a step's own table keeps its best rows in: the ranking's, within the step (tiers first, when it has them). */
function stepOrder(w: Writing): string {
  return w.coverage.tiers ? 'step > 0, score, id' : 'score, id';
}

/** The order of the ranking: steps are gates (a stricter step's pages first) unless one coverage step ranks them all. */
function rankingOrder(w: Writing): string {
  return w.coverage.every === undefined ? 'step, score, id' : stepOrder(w);
}

/**
 * The ranking (`ranked`: a row belongs to the first step that found it, cut at `offset + limit`), the page of it
 * (`page`, past an offset) and its rowid bounds when the page's rows are read by range. Returns the page's name.
 */
function rankingTables(w: Writing): { ctes: string[]; page: string } {
  const { plan } = w;
  const fresh = plan.steps.map((_, i) =>
    i === 0
      ? `SELECT id, score, ${w.coverage.every === undefined ? '0 AS step' : 'step'} FROM step0`
      : `SELECT id, score, ${i} FROM step${i} WHERE id NOT IN (${plan.steps.slice(0, i).map((_, j) => `SELECT id FROM step${j}`).join(' UNION ALL ')})`,
  );
  const order = rankingOrder(w);
  const ctes = [`ranked AS MATERIALIZED (${w.typed && plan.steps.length > 1 ? firstFound(plan) : fresh.join(' UNION ALL ')} ORDER BY ${order} LIMIT ${w.k})`];
  const paged = plan.offset > 0;
  if (paged) ctes.push(`page AS MATERIALIZED (SELECT id, score, step FROM ranked ORDER BY ${order} LIMIT -1 OFFSET ${boundCount(w.bind, plan.offset)})`);
  const page = paged ? 'page' : 'ranked';
  if (plan.pageBy !== 'rowid') ctes.push(`bounds AS MATERIALIZED (SELECT min(id) AS low, max(id) AS high FROM ${page})`);
  return { ctes, page };
}

/**
 * Each row once, in the first step that found it, reading each step's table once: judged by type, a step's table holds
 * the types' tables, and naming each step again for every later one (as `NOT IN`) copied them past what SQLite allows.
 * SQLite takes a bare column from the row `min()` chose.
 */
function firstFound(plan: SearchPlan): string {
  return `SELECT id, score, step FROM (SELECT id, score, min(step) AS step FROM (${plan.steps.map((_, i) => `SELECT id, score, ${i} AS step FROM step${i}`).join(' UNION ALL ')}) GROUP BY id)`;
}

/**
 * The expression snippets mark: the words of every step that ran, any of their phrases, each once. A row any step
 * found has one of them, and a phrase repeated (the strict step's words are the any-term step's too) would be read and
 * weighed twice.
 */
function snippetMatch(w: Writing): string {
  const { plan, bind } = w;
  // Judged by type, a step's groups' words are its words too.
  const expressions = (s: PlanStep) => [s.match, s.every ?? '', ...(s.groups ?? []), ...(s.everyGroups ?? [])];
  const phrasesOf = (n: number) => plan.steps.slice(0, n).flatMap(expressions).flatMap((m) => m.match(PHRASE) ?? []);
  const widest = (n: number) => (n === 1 && w.coverage.every === undefined && !plan.steps[0]!.groups?.length ? plan.steps[0]!.match : [...new Set(phrasesOf(n))].join(' OR '));
  return plan.steps.length === 1
    ? bind(widest(1))
    : `(CASE ${plan.steps
        .slice(1)
        .map((_, i) => `WHEN NOT ${ran(i + 1)} THEN ${bind(widest(i + 1))}`)
        .join(' ')} ELSE ${bind(widest(plan.steps.length))} END)`;
}

/**
 * The page's rows (`r`): details, snippet, sections. The page is joined to the FTS5 rows, not the other way round:
 * that would run the MATCH once per page row (a prefix like "astro"* expanded each time). The range lets FTS5 skip to
 * the rows that matter, and "+rowid IN" drops the others through one index of the page (the join alone would read the
 * page once per FTS5 row). By rowid, "rowid IN" runs the MATCH once per page row after all: it reads those rows only
 * (see `pageBy`).
 */
function pageRows(w: Writing, page: string): string {
  const { plan } = w;
  const byRange = plan.pageBy !== 'rowid';
  return `SELECT 'r' AS kind, p.id AS id, p.score AS score, p.step AS step, NULL AS present,
      f.title AS title, f.url AS url, f.type AS type, f.date AS date, f.tags AS tags, f.emoji AS emoji, f.description AS description,
      snippet(${TABLE}, 2, char(${MARK_OPEN_CODE}), char(${MARK_CLOSE_CODE}), '…', ${plan.snippetTokens}) AS snippet,
      ${plan.bare ? 'NULL' : `(SELECT sections FROM ${SECTIONS_TABLE} WHERE page = p.id)`} AS json
    FROM ${TABLE} f CROSS JOIN ${page} p ON p.id = f.rowid
    WHERE ${TABLE} MATCH ${snippetMatch(w)}
      AND ${byRange ? `f.rowid BETWEEN (SELECT low FROM bounds) AND (SELECT high FROM bounds) AND +` : ''}f.rowid IN (SELECT id FROM ${page})`;
}

/** The rows beside the page's: looked-up words (`c`), the strict count (`s`), the generation (`g`), the ranking (`k`). */
function sideRows(w: Writing): string[] {
  const { plan, bind } = w;
  const parts: string[] = [];
  if (w.lookups.length) {
    // Ordered by bm25() rather than FTS5's `rank`: FTS5 sorts by rank itself, scoring the words of every type before
    // the type is checked, where SQLite scores only the words the filter keeps (a third faster on the benchmark's six
    // types, the same candidates). Where rows read are billed, `rank`: then the type is read only for the words FTS5
    // hands over until the limit is reached, where SQLite reads it for every word (4.5 times the rows on D1).
    parts.push(`SELECT 'c', NULL, NULL, i, present, NULL, NULL, type, NULL, NULL, NULL, NULL, NULL,
      CASE WHEN known THEN '[]' ELSE (SELECT json_group_array(term) FROM (SELECT term FROM ${VOCAB_TABLE} WHERE ${VOCAB_TABLE} MATCH near${scope(w, plan.byType ? 'lookups.type' : undefined)}
        ORDER BY ${plan.rowsBilled ? 'rank' : `bm25(${VOCAB_TABLE}), rowid`} LIMIT ${plan.candidateLimit ?? 40})) END
      FROM lookups`);
  }
  if (plan.strictCheck !== undefined) {
    parts.push(`SELECT 's', NULL, ${siteMatches(plan, [plan.strictCheck], w.enough, bind)}, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL`);
  }
  if (plan.byType?.decide) {
    // Each type's strict count: which took its group's corrections.
    parts.push(`SELECT 's', NULL, n, NULL, NULL, NULL, NULL, type, NULL, NULL, NULL, NULL, NULL, NULL FROM type_strict`);
  }
  if (plan.generation && !plan.bare) {
    parts.push(`SELECT 'g', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, value FROM (${VOCAB_GENERATION_QUERY})`);
  }
  // The whole ranking, when the page is not all of it: placing a step's scores needs the steps' scores before it.
  if (plan.offset > 0) {
    // As rows, not JSON: D1 writes a JSON number with 15 digits, and scores must come back exactly.
    parts.push(`SELECT 'k', id, score, step, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL FROM ranked`);
    // Judged by type, the best result's type decides the suggestion on every page: read here when it is not on this one.
    if (plan.byType?.groups.length) parts.push(`SELECT 'b', NULL, NULL, NULL, NULL, NULL, NULL, (SELECT type FROM ${TABLE} WHERE rowid = (SELECT id FROM ranked ORDER BY ${rankingOrder(w)} LIMIT 1)), NULL, NULL, NULL, NULL, NULL, NULL`);
  }
  return parts;
}

/** What facets count (SQL): every match of the steps that ran, whichever step found the page first. */
function facetMatch(w: Writing): string {
  const { plan, bind } = w;
  const union = (n: number) => bind(n === 1 ? plan.steps[0]!.match : plan.steps.slice(0, n).map((s) => `(${s.match})`).join(' OR '));
  return plan.steps.length === 1
    ? union(1)
    : `(CASE ${plan.steps.slice(1).map((_, i) => `WHEN NOT ${ran(i + 1)} THEN ${union(i + 1)}`).join(' ')} ELSE ${union(plan.steps.length)} END)`;
}

/** A quoted phrase of a match expression (`""` inside is a quote), with its prefix star. */
const PHRASE = /"(?:[^"]|"")*"\*?/g;

/**
 * The top rows of one step by score = bm25 × recency multiplier. With a title weight, bm25 is field-aware: FTS5's
 * bm25 of the row plus that weight times the bm25 of the title alone (from its own table, so normalised by the title's
 * length, not the whole page's). Site, type and day come from the small `search_docs` row rather than the FTS5
 * content row (which carries the whole body); a row missing there falls back to its own columns. FTS5 still scores
 * every match (it has no early termination): the floor for very common words.
 */
function rankQuery(
  plan: SearchPlan,
  match: string,
  joined: JoinedField[],
  bind: Bind,
  limit: string,
  extra: { factor: string; columns: string; order?: string } = { factor: '', columns: '' },
  typed?: TypedMatch,
): string {
  return `SELECT m.id AS id, (${fieldScore(joined)})${extra.factor}${boostOf(plan)}${recencyOf(plan, bind, 'm.day')} AS score${extra.columns} FROM (${matchQuery(plan, match, bind, typed)}) m${fieldJoins(joined)}
    ORDER BY ${extra.order ?? 'score, id'} LIMIT ${limit}`;
}

/** A short field's FTS5 table, how much its bm25 adds to the row's, and (once joined) the table its scores are in. */
interface ShortField {
  table: string;
  weight: number;
}
type JoinedField = ShortField & { name: string };

/** The short fields a plan scores (none for another tool's table). */
function shortFields(plan: SearchPlan): ShortField[] {
  if (plan.bare || plan.titleWeight <= 0) return [];
  const headings = plan.titleWeight * (plan.headingWeight ?? 0);
  return [{ table: TITLES_TABLE, weight: plan.titleWeight }, ...(headings > 0 ? [{ table: HEADINGS_TABLE, weight: headings }] : [])];
}

/** The row's bm25 plus each joined short field's, weighed (a page whose field matches no word adds nothing). */
function fieldScore(joined: JoinedField[]): string {
  return ['m.bm', ...joined.map((f, i) => `${f.weight} * coalesce(f${i}.bm, 0.0)`)].join(' + ');
}

function fieldJoins(joined: JoinedField[]): string {
  return joined.map((f, i) => ` LEFT JOIN ${f.name} f${i} ON f${i}.id = m.id`).join('');
}

/**
 * Every row a step's expression matches in the searched site and type, with FTS5's bm25 of the row and its day
 * number (NULL when undated, or when its type ranks as undated).
 */
function matchQuery(plan: SearchPlan, match: string, bind: Bind, typed?: TypedMatch): string {
  const { title, description, content, tags } = plan.weights;
  const column = (name: string) => (plan.bare ? `f.${name}` : `coalesce(d.${name}, f.${name})`);
  const dated = plan.bare ? DAY_OF_DATE('f.date') : `CASE WHEN d.id IS NULL THEN ${DAY_OF_DATE('f.date')} ELSE d.day END`;
  const undated = plan.recency.boost > 0 ? plan.undatedTypes : [];
  // A list of types is one value bound: D1 binds at most 100 in a statement.
  const day = undated.length ? `CASE WHEN ${column('type')} IN (SELECT value FROM json_each(${bind(JSON.stringify(undated))})) THEN NULL ELSE ${dated} END` : dated;
  const where = [`${TABLE} MATCH ${typed ? typed.match : bind(match)}`];
  if (plan.site) where.push(`${scopeColumn(plan, 'site')} = ${bind(plan.site)}`);
  if (plan.type) where.push(`${scopeColumn(plan, 'type')} = ${bind(plan.type)}`);
  if (typed) where.push(typed.where(scopeColumn(plan, 'type')));
  where.push(...tagConditions(tagsColumn(plan), plan.tags ?? [], bind));
  // The text past maxContentLength (the `more` column) is body text: it weighs as the body does. A table without the
  // column (an older index, another tool's) ignores the extra weight.
  const weights = [title, description, content, tags, content].join(', ');
  const group = typed?.group && plan.byType?.typoGroups?.length ? `, ${typed.group} AS grp` : '';
  return `SELECT f.rowid AS id, bm25(${TABLE}, ${weights}) AS bm, ${plan.recency.boost > 0 ? day : 'NULL'} AS day${plan.bare || plan.boosts === false ? '' : ', d.boost AS boost'}${group}
      FROM ${typed?.from ?? ''}${TABLE} f${plan.bare ? '' : ` LEFT JOIN ${DOCS_TABLE} d ON d.id = f.rowid`}
      WHERE ${where.join(' AND ')}`;
}

/**
 * The column a match's site or type is checked in. Where rows read are billed (D1), the full-text row's own: its columns
 * cost nothing more than the match, where joining `search_docs` first bills a row for every match in every site and
 * type, before the filter drops most of them (so `search_docs` is joined only for the matches kept, or not at all).
 * Locally, `search_docs`' small row, which spares reading the full-text row with the whole body. Both hold the same
 * value: `search_docs` is filled from the full-text rows (`syncDocsStatement` in schema.ts).
 */
function scopeColumn(plan: SearchPlan, name: 'site' | 'type'): string {
  return plan.bare || plan.rowsBilled ? `f.${name}` : `coalesce(d.${name}, f.${name})`;
}

/**
 * The page's own weight (its frontmatter's `search.boost`, from `search_docs`; 1 when it has none). A table written by
 * another tool has none.
 */
function boostOf(plan: SearchPlan): string {
  return plan.bare || plan.boosts === false ? '' : ' * coalesce(m.boost, 1.0)';
}

/** The recency multiplier of a row whose day number is `day` (an empty string when recency is off). */
function recencyOf(plan: SearchPlan, bind: Bind, day: string): string {
  const { boost, windowDays } = plan.recency;
  if (boost <= 0) return '';
  return ` * (CASE WHEN ${day} IS NULL THEN 1.0 ELSE 1.0 + ${boost} * max(0.0, min(1.0, 1.0 - max(0, ${bind(plan.today)} - ${day}) / ${windowDays}.0)) END)`;
}
