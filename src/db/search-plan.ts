import type { SqlValue } from './types.js';
import { DAY_OF_DATE, DOCS_TABLE, SECTION_MATCH_CHARS, SECTIONS_TABLE, TABLE, VOCAB_TABLE } from '../schema.js';
import { MARK_CLOSE_CODE, MARK_OPEN_CODE } from '../snippet.js';

/** What one search statement is asked: the match steps in order, the page, and how rows are scored. */
export interface SearchPlan {
  /** FTS5 match expressions, strictest first. A step runs only while the steps before it found fewer than `limit`. */
  steps: string[];
  limit: number;
  offset: number;
  /** `''` for every type. */
  type: string;
  /** `''` for every site. */
  site: string;
  /** Day number recency is measured from. */
  today: number;
  weights: { title: number; description: number; content: number; tags: number };
  recency: { boost: number; windowDays: number };
  /** Types whose rows rank as undated (sources with `recency: false`). */
  undatedTypes: string[];
  snippetTokens: number;
  /**
   * Trigram match expressions, one per word that may be misspelled: the statement also returns the vocabulary words
   * sharing the most trigrams with each (up to `candidateLimit`), read only when the first step found fewer than
   * `limit`, so a correction never costs a round trip of its own.
   */
  candidates?: string[];
  candidateLimit?: number;
  /**
   * Read only the FTS5 table: for a table written by another tool (astro-d1-search), which has none of the side
   * tables. Rows rank exactly as with them; there are no sections and no corrections.
   */
  bare?: boolean;
}

/** A row of the search statement: a result (`r`), one misspelled word's candidates (`c`) or the one summary row (`m`). */
export interface SearchPlanRow {
  kind: 'r' | 'c' | 'm';
  /** `r`: the page's rowid. */
  id: number | null;
  /** `r`: its score in the step that found it (bm25 × recency, before placing it after the stricter steps). */
  score: number | null;
  /** `r`: the step that found it; `c`: the index of the candidate expression. */
  step: number | null;
  /** `r`: the position in the ranking (0-based, offset included). */
  position: number | null;
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
   * `c`: the vocabulary words found, a JSON array; `m`: for each step that found rows, `[step, best score, worst score]`.
   */
  json: string | null;
}

/** What each step found, from the summary row: the step, its best (lowest) score and its worst. */
export type StepSpan = [step: number, best: number, worst: number];

/**
 * One statement for a whole search, so a search on D1 is one round trip: each step ranks its top `offset + limit`
 * (bm25 × recency, exactly), a row belongs to the first step that found it, the ranking is the steps in order (each
 * by score) cut at `offset + limit`, and the page's details, snippets and sections are read, all in one snapshot of
 * the index. The caller places each step's scores after the stricter steps' ({@link StepSpan}).
 *
 * A step that is not needed costs nothing: its `LIMIT` is 0 when the steps before it already found `limit` rows, and
 * SQLite skips a query with a zero limit before it reads a row (a `WHERE` condition on a sub-select would not stop
 * the scan). Each common table expression is copied wherever it is named, so the statement names each step only
 * where it must (SQLite refuses statements whose copies add up to 1,000 cursors). The user's words and numbers are
 * all bound; only configuration numbers are written into the SQL.
 */
export function searchStatement(plan: SearchPlan): { sql: string; params: SqlValue[] } {
  // Values are bound where they appear in the text, which is not the order the text is built in: `bind` leaves a
  // marker, and the markers become `?` in text order at the end.
  const values: SqlValue[] = [];
  const bind = (...vs: SqlValue[]) => vs.map((v) => `\u0000${values.push(v) - 1}\u0000`).join(', ');
  const k = bind(plan.offset + plan.limit);
  const limit = bind(plan.limit);
  // Step i runs while the steps before it found fewer than `limit` distinct rows.
  const needed = (i: number) =>
    `(SELECT count(*) FROM (${plan.steps.slice(0, i).map((_, j) => `SELECT id FROM step${j}`).join(' UNION ')})) < ${limit}`;
  const ctes = plan.steps.map(
    (match, i) => `step${i} AS MATERIALIZED (${rankQuery(plan, match, bind, i === 0 ? k : `(CASE WHEN ${needed(i)} THEN ${k} ELSE 0 END)`)})`,
  );
  ctes.push(`found AS (${plan.steps.map((_, i) => `SELECT id, score, ${i} AS step FROM step${i}`).join(' UNION ALL ')})`);
  ctes.push(`ranked AS MATERIALIZED (SELECT id, score, step, row_number() OVER (ORDER BY step, score, id) - 1 AS position
    FROM (SELECT id, score, step, min(step) OVER (PARTITION BY id) AS first FROM found) WHERE step = first
    ORDER BY step, score, id LIMIT ${k})`);
  ctes.push(`page AS MATERIALIZED (SELECT id, score, step, position FROM ranked WHERE position >= ${bind(plan.offset)})`);

  // Snippets mark the words of every step that ran.
  const widest = (n: number) => (n === 1 ? plan.steps[0]! : plan.steps.slice(0, n).map((m) => `(${m})`).join(' OR '));
  const snippetMatch =
    plan.steps.length === 1
      ? bind(widest(1))
      : `(CASE ${plan.steps
          .slice(1)
          .map((_, i) => `WHEN NOT ${needed(i + 1)} THEN ${bind(widest(i + 1))}`)
          .join(' ')} ELSE ${bind(widest(plan.steps.length))} END)`;
  // "+rowid" keeps SQLite from running the MATCH once per page row (a prefix like "co"* would be expanded each time);
  // the range lets FTS5 skip to the rows that matter.
  const parts = [
    `SELECT 'r' AS kind, p.id AS id, p.score AS score, p.step AS step, p.position AS position,
      f.title AS title, f.url AS url, f.type AS type, f.date AS date, f.tags AS tags, f.emoji AS emoji, f.description AS description,
      snippet(${TABLE}, 2, char(${MARK_OPEN_CODE}), char(${MARK_CLOSE_CODE}), '…', ${plan.snippetTokens}) AS snippet,
      ${plan.bare ? 'NULL' : `(SELECT json_group_array(json_array(heading, anchor, content)) FROM (SELECT heading, anchor, substr(content, 1, ${SECTION_MATCH_CHARS}) AS content
        FROM ${SECTIONS_TABLE} WHERE page = p.id ORDER BY position))`} AS json
    FROM ${TABLE} f CROSS JOIN page p ON p.id = f.rowid
    WHERE ${TABLE} MATCH ${snippetMatch}
      AND f.rowid BETWEEN (SELECT min(id) FROM page) AND (SELECT max(id) FROM page) AND +f.rowid IN (SELECT id FROM page)`,
  ];
  if (plan.candidates?.length && !plan.bare) {
    const scope = [plan.site ? ` AND site = ${bind(plan.site)}` : '', plan.type ? ` AND type = ${bind(plan.type)}` : ''].join('');
    parts.push(`SELECT 'c', NULL, NULL, CAST(j.key AS INTEGER), NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
      (SELECT json_group_array(term) FROM (SELECT term FROM ${VOCAB_TABLE} WHERE ${VOCAB_TABLE} MATCH j.value${scope}
        ORDER BY rank LIMIT (CASE WHEN (SELECT count(*) FROM step0) < ${limit} THEN ${plan.candidateLimit ?? 40} ELSE 0 END)))
      FROM json_each(${bind(JSON.stringify(plan.candidates))}) j`);
  }
  parts.push(`SELECT 'm', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
    (SELECT json_group_array(json_array(step, best, worst)) FROM (SELECT step, min(score) AS best, max(score) AS worst FROM ranked GROUP BY step ORDER BY step))`);

  const params: SqlValue[] = [];
  const sql = `WITH ${ctes.join(',\n')}\n${parts.join('\nUNION ALL\n')}`.replace(/\u0000(\d+)\u0000/g, (_, i: string) => {
    params.push(values[Number(i)]!);
    return '?';
  });
  return { sql, params };
}

/**
 * The top rows of one match expression by score = bm25 × recency multiplier. Site, type and day come from the small
 * `search_docs` row rather than the FTS5 content row (which carries the whole body); a row missing there falls back
 * to its own columns. FTS5 still scores every match (it has no early termination): the floor for very common words.
 */
function rankQuery(plan: SearchPlan, match: string, bind: (...values: SqlValue[]) => string, limit: string): string {
  const { title, description, content, tags } = plan.weights;
  const { boost, windowDays } = plan.recency;
  const column = (name: string) => (plan.bare ? `f.${name}` : `coalesce(d.${name}, f.${name})`);
  const dated = plan.bare ? DAY_OF_DATE('f.date') : `CASE WHEN d.id IS NULL THEN ${DAY_OF_DATE('f.date')} ELSE d.day END`;
  const undated = boost > 0 ? plan.undatedTypes : [];
  const today = boost > 0 ? bind(plan.today) : '';
  const day = undated.length ? `CASE WHEN ${column('type')} IN (${bind(...undated)}) THEN NULL ELSE ${dated} END` : dated;
  const recency = boost > 0 ? ` * (CASE WHEN day IS NULL THEN 1.0 ELSE 1.0 + ${boost} * max(0.0, min(1.0, 1.0 - max(0, ${today} - day) / ${windowDays}.0)) END)` : '';
  const where = [`${TABLE} MATCH ${bind(match)}`];
  if (plan.site) where.push(`${column('site')} = ${bind(plan.site)}`);
  if (plan.type) where.push(`${column('type')} = ${bind(plan.type)}`);
  return `SELECT id, bm${recency} AS score FROM (
      SELECT f.rowid AS id, bm25(${TABLE}, ${title}, ${description}, ${content}, ${tags}) AS bm, ${day} AS day
      FROM ${TABLE} f${plan.bare ? '' : ` LEFT JOIN ${DOCS_TABLE} d ON d.id = f.rowid`}
      WHERE ${where.join(' AND ')})
    ORDER BY score, id LIMIT ${limit}`;
}
