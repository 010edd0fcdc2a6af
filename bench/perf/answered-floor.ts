/**
 * The floor each search is measured against (issue 36): FTS5's bm25 top 10 and `snippet()` of those 10, over the
 * expression the handler answered: every word, or any word when it widened, with the corrected (or completed) words
 * when it corrected. The least any FTS5 search box can do for the same answer, query by query, in the same run.
 */
import { createSearchHandler, type ResolvedConfig, type SearchDatabase } from '../../src/index.js';
import { TABLE } from '../../src/db/schema.js';
import { normalizeSearchInput, searchWords } from '../../src/search/query.js';
import { judgeQuery } from '../../src/search/search.js';
import { coverageRanking } from '../../src/ranking/coverage.js';
import { coverageMatch, everyWordMatch } from '../../src/ranking/expressions.js';
import { groupsSearched } from '../../src/ranking/judged-expressions.js';
import { MARK_CLOSE_CODE, MARK_OPEN_CODE } from '../../src/text/marks.js';

/** How the handler found its answer: the step its loosest result came from, and whether a word was corrected or completed. */
export type Path = 'strict' | 'widened' | 'corrected' | 'corrected, widened' | 'completed' | 'completed, widened' | 'no result';

/** What the handler answered for one query, and the FTS5 expressions that answer is measured against. */
export interface Answered {
  path: Path;
  /** Every word of the query (with the corrections of the types searched) when every result holds it, else any word. */
  match: string;
  /**
   * The expression the coverage ranking ranks to find that answer: any informative word of the query (with the
   * corrections of the types searched). What issue 52 measures the handler against.
   */
  ranked: string;
}

/** The answer as the endpoint returns it. */
interface Body {
  suggestion?: string;
  results: { match: 'all' | 'any' | 'typo' }[];
}

/**
 * Asks the handler (cache off) for `q` and reads what it answered: the results' `match` says whether it widened
 * (`any`); the corrections and completions are the search's own judgement of the query (`judgeQuery`, which the search
 * itself runs), in the type asked or, without one (`BENCH_NO_TYPE`), in every type.
 */
export async function answeredBy(config: ResolvedConfig, db: SearchDatabase): Promise<(q: string, lang: string) => Promise<Answered>> {
  const handler = createSearchHandler(config, { db, cache: false });
  return async (q, lang) => {
    const type = process.env.BENCH_NO_TYPE ? '' : lang;
    const body = (await (await handler(new Request(`http://bench/api/search?q=${encodeURIComponent(q)}${type ? `&type=${type}` : ''}`))).json()) as Body;
    const input = normalizeSearchInput(config, { q, type });
    const { query } = await judgeQuery(config, db, input, searchWords(input.q), coverageRanking);
    const terms = [...query.terms];
    const groups = groupsSearched(query, { type });
    const fixes = groups.flatMap((g) => [...g.corrections.values()].flat());
    const corrections = new Map(groups.flatMap((g) => [...g.corrections]));
    const widened = body.results.some((r) => r.match === 'any');
    const completed = groups.length > 0 && groups.every((g) => g.completion);
    const corrected = groups.length > 0 ? (completed ? 'completed' : 'corrected') : undefined;
    const path: Path = body.results.length === 0 ? 'no result' : corrected ? (widened ? `${corrected}, widened` : corrected) : widened ? 'widened' : 'strict';
    const ranked = coverageMatch(terms, fixes, corrections);
    return { path, match: widened ? ranked : everyWordMatch(terms, corrections, corrections), ranked };
  };
}

/** Runs SQL on a driver, synchronously (node:sqlite's `DatabaseSync`). */
export interface Native {
  prepare(sql: string): { all(...params: unknown[]): unknown[] };
}

/**
 * The floor's statement: bm25 top 10 with the handler's column weights, then `snippet()` of those 10 only, found
 * again by rowid (in one SELECT, SQLite would compute the snippet of every match before sorting). No type filter,
 * recency, titles or sections: every language's pages are ranked, as the FTS5 floor rows always have (issue 52's
 * "floor over every type").
 */
export function floorStatement(config: ResolvedConfig): string {
  const { title, description, content, tags } = config.weights;
  return `WITH top AS MATERIALIZED (SELECT rowid AS id, bm25(${TABLE}, ${title}, ${description}, ${content}, ${tags}, ${content}, 0) AS bm
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
