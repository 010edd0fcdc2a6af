/**
 * What every ranking's statement shares: values bound where they appear, the page read back with its snippets and
 * sections, the scores placed tier after tier, the facet counts, and the one row shape the search reads
 * ({@link RankedRow}). A ranking writes its candidates, its features and its order; the rest is written here once.
 */
import type { Bind, SqlValue } from '../db/types.js';
import { DOCS_TABLE, SECTIONS_TABLE, TABLE, VOCAB_GENERATION_QUERY } from '../db/schema.js';
import { tagCounts, typeCounts } from '../db/facet-sql.js';
import { MARK_CLOSE_CODE, MARK_OPEN_CODE } from '../text/marks.js';
import type { SearchScope, StatementRequest } from './types.js';

/**
 * Values are bound where they appear in the text, which is not the order the text is built in: `bind` leaves a
 * marker, and {@link statementOf} turns the markers into `?` in text order.
 */
export function binder(): { values: SqlValue[]; bind: Bind } {
  const values: SqlValue[] = [];
  return { values, bind: (...vs) => vs.map((v) => `\u0000${values.push(v) - 1}\u0000`).join(', ') };
}

/** The statement's text with a `?` for each marker, and the values in that order. */
export function statementOf(text: string, values: SqlValue[]): { sql: string; params: SqlValue[] } {
  const params: SqlValue[] = [];
  const sql = text.replace(/\u0000(\d+)\u0000/g, (_, i: string) => {
    params.push(values[Number(i)]!);
    return '?';
  });
  return { sql, params };
}

/**
 * A row count bound for a LIMIT or OFFSET, as an expression rather than a bare parameter: SQLite (3.47 and later) plans
 * a LIMIT by the integer bound to a bare `?` and so compiles a reused statement again at every run, which took longer
 * than many searches take to run.
 */
export function boundCount(bind: Bind, n: number): string {
  return `CAST(${bind(n)} AS INTEGER)`;
}

/** The bm25 weights of `search_index`'s columns: title, description, content, tags, the text past the cut (as content), scope (0). */
export function columnWeights(request: StatementRequest): string {
  const { title, description, content, tags } = request.weights;
  return [title, description, content, tags, content, 0].map((w) => `${w}`).join(', ');
}

/**
 * The recency multiplier of a page of type `type` whose day number is `day` (SQL), or `''` when recency is off:
 * `1 + boost` today, falling evenly to 1 at `windowDays` old; 1 undated or of a type that ranks undated.
 */
export function recencyFactor(request: StatementRequest, bind: Bind, day: string, type: string): string {
  const { boost, windowDays } = request.recency;
  if (boost <= 0) return '';
  // A list of types is one value bound: D1 binds at most 100 in a statement.
  const undated = request.undatedTypes.length ? ` OR ${type} IN (SELECT value FROM json_each(${bind(JSON.stringify(request.undatedTypes))}))` : '';
  return ` * (CASE WHEN ${day} IS NULL${undated} THEN 1.0 ELSE 1.0 + ${boost} * max(0.0, min(1.0, 1.0 - max(0, ${bind(request.today)} - ${day}) / ${windowDays}.0)) END)`;
}

/** A page's own weight (its frontmatter's `search.boost`; 1 when it has none), as a factor of its score. */
export const BOOST_FACTOR = ' * coalesce(d.boost, 1.0)';

/**
 * The scores placed tier after tier (`placed(tier, factor)`): each tier's scores are multiplied so that its best comes
 * just after the tier before's worst, which keeps every score in ascending order through the whole ranking, as SPEC.md
 * asks, whatever tier a page is in; a tier that already comes after keeps its scores. `ranked(id, score, tier)` holds
 * the ranking; tiers are consecutive from 0.
 */
export function placedTiers(): string {
  const factor = `CASE WHEN s.best < 0 AND s.best < p.worst THEN (p.worst / s.best) * (1.0 - 1e-9) ELSE 1.0 END`;
  return `spans AS MATERIALIZED (SELECT tier, min(score) AS best, max(score) AS worst FROM ranked GROUP BY tier),
  placed(tier, factor, worst) AS (
    SELECT tier, 1.0, worst FROM spans WHERE tier = (SELECT min(tier) FROM spans)
    UNION ALL
    SELECT s.tier, ${factor}, s.worst * ${factor}
    FROM placed p JOIN spans s ON s.tier = (SELECT min(tier) FROM spans WHERE tier > p.tier)
  )`;
}

/**
 * The page asked (`page(id, score, tier, holds, place, variants)`), from `ranked(id, score, tier, holds, place)` where
 * `place` numbers the whole ranking from 1: the order was decided there, once; the page is a slice of it. `variants`:
 * the SQL of a result's variants (of `r`, a row of `ranked`), where the ranking lists them.
 */
export function pageTable(bind: Bind, request: StatementRequest, variants = 'NULL'): string {
  // The slice by its places, read in one pass over the ranking (no sort: `page_rows` is ordered by place at the end).
  const first = boundCount(bind, request.offset + 1);
  const last = boundCount(bind, request.offset + request.limit);
  return `page AS MATERIALIZED (SELECT r.id, r.score * (SELECT factor FROM placed WHERE tier = r.tier) AS score, r.tier, r.holds, r.place, ${variants} AS variants
    FROM ranked r WHERE r.place BETWEEN ${first} AND ${last})`;
}

/**
 * The page's rows read back from the full-text table for their fields, snippet and sections (`page_rows`). The page is
 * joined to the full-text rows, not the other way round: that would run the MATCH once per page row. By range, FTS5
 * skips to the page's rows and `+rowid IN` drops the others; by rowid, it runs the MATCH once per page row, which reads
 * those rows only (what D1 bills). `match` is the expression whose words the snippet marks.
 */
export function pageRowsTable(bind: Bind, request: StatementRequest, match: string): string {
  const byRange = request.pageBy === 'range';
  const range = byRange ? `f.rowid BETWEEN (SELECT min(id) FROM page) AND (SELECT max(id) FROM page) AND +` : '';
  return `page_rows AS MATERIALIZED (SELECT p.place, p.id, p.score, p.tier, p.holds,
      f.title, f.url, f.type, f.date, f.tags, f.emoji, f.description,
      snippet(${TABLE}, 2, char(${MARK_OPEN_CODE}), char(${MARK_CLOSE_CODE}), '…', ${request.snippetTokens}) AS snippet,
      (SELECT sections FROM ${SECTIONS_TABLE} WHERE page = p.id) AS sections, p.variants
    FROM ${TABLE} f CROSS JOIN page p ON p.id = f.rowid
    WHERE ${TABLE} MATCH ${bind(match)} AND ${range}f.rowid IN (SELECT id FROM page))`;
}

/**
 * The statement's final SELECT: one row per result of the page, each carrying the answer's own fields (the vocabulary
 * generation, the best result's type and tier, the facet counts), or one row of those alone when the page is empty.
 * The rows come with their `place` in the one order decided above, not sorted again here: sorting them would copy each
 * page's fields, its sections and snippet with them, through a sort of their own (a seventh of the statement's time).
 */
export function answerRows(facets: string | undefined): string {
  return `SELECT a.generation, a.best_type, a.best_tier, a.best_holds, a.facets, r.place, r.id, r.score, r.tier, r.holds,
    r.title, r.url, r.type, r.date, r.tags, r.emoji, r.description, r.snippet, r.sections, r.variants
  FROM (SELECT (${VOCAB_GENERATION_QUERY}) AS generation,
      (SELECT type FROM best) AS best_type, (SELECT tier FROM best) AS best_tier, (SELECT holds FROM best) AS best_holds, ${facets ?? 'NULL'} AS facets) a
    LEFT JOIN page_rows r ON 1`;
}

/**
 * The first result of the whole ranking, its type read from `search_docs` (`best(type, tier, holds)`): the suggestion
 * follows it, so every page of an answer suggests the same.
 */
export function bestTable(): string {
  return `best AS MATERIALIZED (SELECT d.type, r.tier, r.holds FROM ranked r JOIN ${DOCS_TABLE} d ON d.id = r.id WHERE r.place = 1)`;
}

/**
 * The facet counts asked, as one JSON value `[[kind, value, count], …]` (SQL; `kind` is `f` for a type, `t` for a tag),
 * and the tables they read. `typeMatch`: the expression whose matches the type counts count (the query judged in every
 * type, without the type filter: a type's count is what choosing it gives); `tagMatch`: the search's own (with the type
 * and tags asked: a tag's count is what adding it gives).
 */
export function facetCounts(bind: Bind, scope: SearchScope, request: StatementRequest, typeMatch: string, tagMatch: string): { ctes: string[]; json?: string } {
  if (!request.facets.length) return { ctes: [] };
  const counting = { limit: boundCount(bind, request.facetLimit), rowsBilled: request.rowsBilled, tagGroups: request.tagGroups };
  const parts = [
    ...(request.facets.includes('type') ? [typeCounts(bind(typeMatch), scope.types, bind, counting)] : []),
    ...(request.facets.includes('tags') ? [tagCounts(bind(tagMatch), counting)] : []),
  ];
  return {
    ctes: parts.flatMap((p) => p.ctes),
    json: `(SELECT json_group_array(json_array(kind, value, n)) FROM (${parts.map((p) => `SELECT * FROM (${p.select})`).join(' UNION ALL ')}))`,
  };
}

