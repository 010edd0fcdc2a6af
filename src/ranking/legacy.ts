/**
 * The plain statement an index of another schema version answers with, until its next push rebuilds it (or a table
 * another tool wrote, which has only `search_index`): SPEC.md's query and score over the full-text row's own columns,
 * filtered by them, with the facet counts grouped from them. No corrections, sections or second phase: those read
 * what such an index lacks. Same row shape as the rankings' ({@link RankedRow}).
 */
import { DAY_OF_DATE, TABLE } from '../db/schema.js';
import type { Bind } from '../db/types.js';
import { WORD_BREAK } from '../text/segment.js';
import { MARK_CLOSE_CODE, MARK_OPEN_CODE } from '../text/marks.js';
import { allTermsMatch } from './expressions.js';
import { binder, boundCount, recencyFactor, statementOf } from './statement.js';
import type { SearchScope, StatementRequest } from './types.js';

/** The full-text row's tags as values (without the word breaks between words of unspaced scripts). */
const TAGS = `replace(f.tags, char(${WORD_BREAK.codePointAt(0)}), '')`;

/** SPEC.md's statement over an older index. */
export function legacyStatement(terms: readonly string[], scope: SearchScope, request: StatementRequest) {
  const { values, bind } = binder();
  const match = bind(allTermsMatch(terms));
  const filters = (type: string) =>
    [
      ...(scope.site ? [`f.site = ${bind(scope.site)}`] : []),
      ...(type ? [`f.type = ${bind(type)}`] : []),
      ...scope.tags.map((tag) => `instr(' ' || ${TAGS} || ' ', ${bind(` ${tag} `)}) > 0`),
    ]
      .map((c) => ` AND ${c}`)
      .join('');
  const score = `bm25(${TABLE}, ${[request.weights.title, request.weights.description, request.weights.content, request.weights.tags, request.weights.content].join(', ')})${recencyFactor(request, bind, DAY_OF_DATE('f.date'), 'f.type')}`;
  const facets = legacyFacets(bind, scope, request, match, filters);
  // The page first, its snippets after: in one SELECT, SQLite would make the snippet of every match before sorting.
  const sql = `WITH ranked AS MATERIALIZED (SELECT id, score, row_number() OVER (ORDER BY score, id) AS place FROM (
        SELECT f.rowid AS id, ${score} AS score FROM ${TABLE} f WHERE ${TABLE} MATCH ${match}${filters(scope.type)})
      ORDER BY place LIMIT ${boundCount(bind, request.limit)} OFFSET ${boundCount(bind, request.offset)}),
    page_rows AS MATERIALIZED (SELECT r.place, r.id, r.score, f.title, f.url, f.type, f.date, f.tags, f.emoji, f.description,
      snippet(${TABLE}, 2, char(${MARK_OPEN_CODE}), char(${MARK_CLOSE_CODE}), '…', ${request.snippetTokens}) AS snippet
      FROM ${TABLE} f CROSS JOIN ranked r ON r.id = f.rowid WHERE ${TABLE} MATCH ${match} AND f.rowid IN (SELECT id FROM ranked))
  SELECT NULL AS generation, NULL AS best_type, NULL AS best_tier, NULL AS best_holds, ${facets} AS facets, r.place, r.id, r.score, 0 AS tier, 1 AS holds,
    r.title, r.url, r.type, r.date, r.tags, r.emoji, r.description, r.snippet, NULL AS sections
  FROM (SELECT 1) LEFT JOIN page_rows r ON 1`;
  return statementOf(sql, values);
}

/** The facet counts asked, grouped from the full-text rows (as one JSON value, or NULL when none were asked). */
function legacyFacets(bind: Bind, scope: SearchScope, request: StatementRequest, match: string, filters: (type: string) => string): string {
  const parts: string[] = [];
  const limit = boundCount(bind, request.facetLimit);
  if (request.facets.includes('type')) {
    parts.push(`SELECT * FROM (SELECT 'f' AS kind, f.type AS value, count(*) AS n FROM ${TABLE} f WHERE ${TABLE} MATCH ${match}${filters('')}
      AND f.type IN (SELECT value FROM json_each(${bind(JSON.stringify(scope.types))})) GROUP BY f.type ORDER BY n DESC, value LIMIT ${limit})`);
  }
  if (request.facets.includes('tags')) {
    parts.push(`SELECT * FROM (SELECT 't' AS kind, j.value AS value, count(*) AS n FROM ${TABLE} f, json_each('[' || replace(json_quote(${TAGS}), ' ', '","') || ']') j
      WHERE ${TABLE} MATCH ${match}${filters(scope.type)} AND f.tags <> '' AND j.value <> '' GROUP BY j.value ORDER BY n DESC, value LIMIT ${limit})`);
  }
  return parts.length ? `(SELECT json_group_array(json_array(kind, value, n)) FROM (${parts.join(' UNION ALL ')}))` : 'NULL';
}
