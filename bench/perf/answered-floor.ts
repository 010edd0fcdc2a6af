/**
 * The floor each search is measured against (issue 36): FTS5's bm25 top 10 and `snippet()` of those 10, over the
 * expression the handler answered: every word, or any word when it widened, with the corrected (or completed) words
 * when it corrected. The least any FTS5 search box can do for the same answer, query by query, in the same run.
 */
import { createSearchHandler, type ResolvedConfig, type SearchDatabase, type SearchStatement } from '../../src/index.js';
import { TABLE } from '../../src/db/schema.js';
import { coverageMatch, everyWordMatch, normalizeSearchInput, searchTerms } from '../../src/search/query.js';
import { MARK_CLOSE_CODE, MARK_OPEN_CODE } from '../../src/text/marks.js';
import { chooseCorrections, completes, correctionLookups } from '../../src/search/typos.js';
import { latestTypoIndex } from '../../src/search/packed-vocabulary.js';

/** How the handler found its answer: the step its loosest result came from, and whether a word was corrected or completed. */
export type Path = 'strict' | 'widened' | 'corrected' | 'corrected, widened' | 'completed' | 'completed, widened' | 'no result';

/** What the handler answered for one query, and the FTS5 expression that answer is measured against. */
export interface Answered {
  path: Path;
  match: string;
  /**
   * The expression the coverage ranking ranks to find that answer: any informative word of the query (with the
   * corrected words). Wider than `match` on the strict path, where the answer holds every word but was ranked among
   * every page holding one of them (issue 35).
   */
  ranked: string;
}

/** The answer as the endpoint returns it; `corrections` is read if the handler ever exposes the words it corrected. */
interface Body {
  suggestion?: string;
  corrections?: Record<string, string[]>;
  results: { match: 'all' | 'any' | 'typo' }[];
}

/**
 * Asks the handler (cache off) for `q` and derives what it answered from its response: the results' `match` says
 * whether it widened (`any`), `suggestion` that it corrected. A completion (the last word typed partway) shows in
 * neither, so the words corrected or completed are chosen as the handler chooses them (`chooseCorrections`) from the
 * typo candidates its first statement read, and checked against `suggestion` when there is one.
 */
export async function answeredBy(config: ResolvedConfig, db: SearchDatabase): Promise<(q: string, lang: string) => Promise<Answered>> {
  let statements: Record<string, unknown>[][] = [];
  const watch = (statement: SearchStatement): SearchStatement => ({
    bind: (...values) => watch(statement.bind(...values)),
    all: async <Row>() => {
      const answer = await statement.all<Row>();
      statements.push(answer.results as Record<string, unknown>[]);
      return answer;
    },
    run: () => statement.run(),
  });
  const handler = createSearchHandler(config, { db: { prepare: (sql) => watch(db.prepare(sql)) }, cache: false });
  return async (q, lang) => {
    statements = [];
    const body = (await (await handler(new Request(`http://bench/api/search?q=${encodeURIComponent(q)}&type=${lang}`))).json()) as Body;
    const terms = searchTerms(normalizeSearchInput(config, { q, type: lang }).q, config.maxTerms);
    const lastTerm = terms.at(-1)!;
    const lookups = correctionLookups(terms);
    const candidates = lookups.map(() => [] as string[]);
    const looked = (statements[0] ?? []).filter((row) => row.kind === 'c');
    for (const row of looked) candidates[Number(row.step)] = JSON.parse(String(row.json ?? '[]')) as string[];
    // With the vocabulary in memory the statement reads no candidates: the search chose them there, as here.
    // Unless the statement found enough pages holding every word as typed (its `s` row): then the query stood.
    const input = normalizeSearchInput(config, { q, type: lang });
    const stood = (statements[0] ?? []).some((row) => row.kind === 's' && Number(row.score) >= input.limit);
    const memory = looked.length === 0 && !stood ? latestTypoIndex() : undefined;
    if (memory) lookups.forEach((lookup, i) => (candidates[i] = memory.index.lookup(lookup, { site: config.site, type: lang }).candidates));
    const corrections = body.corrections ? new Map(Object.entries(body.corrections)) : chooseCorrections(lookups, candidates, lastTerm);
    const suggested = terms.map((t) => corrections.get(t)?.[0] ?? t).join(' ');
    if (body.suggestion !== undefined && body.suggestion !== suggested) {
      throw new Error(
        `[site-search] bench/perf/answered-floor.ts: for "${q}" the handler suggested "${body.suggestion}" but the corrections derived from its statements give "${suggested}"; expose the corrections the search applied (completions included) and read them here`,
      );
    }
    const widened = body.results.some((r) => r.match === 'any');
    const completed = corrections.size > 0 && [...corrections].every(([term, words]) => term === lastTerm && words.every((w) => completes(term, w)));
    const corrected = corrections.size > 0 ? (completed ? 'completed' : 'corrected') : undefined;
    const path: Path = body.results.length === 0 ? 'no result' : corrected ? (widened ? `${corrected}, widened` : corrected) : widened ? 'widened' : 'strict';
    // The handler's own expressions: every informative word (each corrected word or its correction), or any of them.
    const match = widened ? coverageMatch(terms, [...corrections.values()].flat()) : everyWordMatch(terms, corrections);
    return { path, match, ranked: coverageMatch(terms, [...corrections.values()].flat()) };
  };
}

/** Runs SQL on a driver, synchronously (node:sqlite's `DatabaseSync`). */
export interface Native {
  prepare(sql: string): { all(...params: unknown[]): unknown[] };
}

/**
 * The floor's statement: bm25 top 10 with the handler's column weights, then `snippet()` of those 10 only, found
 * again by rowid (in one SELECT, SQLite would compute the snippet of every match before sorting). No type filter,
 * recency, titles or sections: every language's pages are ranked, as the FTS5 floor rows always have.
 */
export function floorStatement(config: ResolvedConfig): string {
  const { title, description, content, tags } = config.weights;
  return `WITH top AS MATERIALIZED (SELECT rowid AS id, bm25(${TABLE}, ${title}, ${description}, ${content}, ${tags}, ${content}) AS bm
    FROM ${TABLE} WHERE ${TABLE} MATCH ?1 ORDER BY bm LIMIT 10)
  SELECT top.id, snippet(${TABLE}, 2, char(${MARK_OPEN_CODE}), char(${MARK_CLOSE_CODE}), '…', ${config.snippetTokens}) AS snippet
    FROM top JOIN ${TABLE} ON ${TABLE}.rowid = top.id WHERE ${TABLE} MATCH ?1 ORDER BY top.bm`;
}

/** Handler over floor, query by query: the ratios' p50 and p99, each side's, and the queries furthest above their floor. */
export interface FloorReport {
  queries: number;
  /** Handler and floor CPU ms, percentiles over the queries of each one's median over rounds. */
  handler: { p50: number; p99: number };
  floor: { p50: number; p99: number };
  /** Handler p50 over floor p50, and p99 over p99 (issue 36's targets: ≤ 1.5× and ≤ 1.0×). */
  ofPercentiles: { p50: number; p99: number };
  /** Percentiles of the per-query ratio handler / floor. */
  ratio: { p50: number; p99: number };
  /** How many queries took each path. */
  paths: Record<string, number>;
  /** The ten queries with the highest ratio. */
  slowest: QueryFigures[];
  /** Every query, in the mix's order (bench/results/latency.json keeps them). */
  each: QueryFigures[];
  /**
   * The same measure for two pairs that split the gap: the handler against the floor over what its ranking ranks (any
   * informative word), and the handler with `ranking: 'fts5'` (SPEC.md's bm25, the pages holding every word first)
   * against the answered floor.
   */
  beside?: Record<string, Pick<FloorReport, 'handler' | 'floor' | 'ofPercentiles'>>;
}

/** One query's path, CPU ms (median over rounds) on each side, and their ratio. */
export interface QueryFigures {
  query: string;
  lang: string;
  path: Path;
  handler: number;
  floor: number;
  ratio: number;
}

const at = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
const p50p99 = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return { p50: at(s, 0.5), p99: at(s, 0.99) };
};

/** The report from per-query medians (aligned with `mix`) and each query's path. */
export function floorReport(mix: [string, string][], handler: number[], floor: number[], paths: Path[]): FloorReport {
  const ratios = mix.map((_, i) => handler[i]! / floor[i]!);
  const [h, f] = [p50p99(handler), p50p99(floor)];
  const count: Record<string, number> = {};
  for (const p of paths) count[p] = (count[p] ?? 0) + 1;
  const each = mix.map(([query, lang], i): QueryFigures => ({ query, lang, path: paths[i]!, handler: handler[i]!, floor: floor[i]!, ratio: ratios[i]! }));
  return {
    queries: mix.length,
    handler: h,
    floor: f,
    ofPercentiles: { p50: h.p50 / f.p50, p99: h.p99 / f.p99 },
    ratio: p50p99(ratios),
    paths: count,
    slowest: [...each].sort((a, b) => b.ratio - a.ratio).slice(0, 10),
    each,
  };
}

/** A node:sqlite database read directly, each statement prepared once: what the floor is timed on. */
export function rawDriver(path: string): Native {
  const sqlite = process.getBuiltinModule('node:sqlite') as typeof import('node:sqlite');
  const db = new sqlite.DatabaseSync(path);
  const cache = new Map<string, ReturnType<typeof db.prepare>>();
  return {
    prepare: (sql) => {
      let st = cache.get(sql);
      if (!st) cache.set(sql, (st = db.prepare(sql)));
      return st as unknown as { all(...params: unknown[]): unknown[] };
    },
  };
}
