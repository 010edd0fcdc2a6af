import { DOCS_TABLE, TABLE } from './schema.js';
import type { Bind } from './types.js';
import { WORD_BREAK } from '../text/segment.js';

/**
 * The facet counts of a search (docs/http-api.md, "Filters and facets"), as parts of its one statement: the matches of
 * an expression (SQL that gives it, already holding the site's, type's and tags' scope words it counts within) counted
 * by type or by tag. Each part is a SELECT of `(kind, value, n)` rows, `kind` being `f` (a type) or `t` (a tag), the
 * most frequent first, at most `limit` of each.
 *
 * Locally the type and tags of a match are read from its small `search_docs` row (the full-text row carries the whole
 * body, read whole as soon as one of its columns is named). Where rows read are billed (D1), which bills a row for each match yielded, each `search_docs` row joined and
 * each row a `GROUP BY` sorts, but not the full-text row's own columns, each count is one aggregate over the matches'
 * full-text rows instead.
 */
export interface FacetCountsRequest {
  /** At most this many values, the most frequent first (SQL: a bound count). */
  limit: string;
  /** The database bills every row read (D1). */
  rowsBilled: boolean;
  /**
   * Count the tags through groups even where rows are billed: the one pass's list of every match's tags was more than
   * the database holds in one value (D1: 2 MB).
   */
  tagGroups?: boolean;
}

/** A facet's part of the statement: the tables it reads, and its SELECT of `(kind, value, n)`. */
export interface FacetPart {
  ctes: string[];
  select: string;
}

/** The full-text row's tags as values: without the word breaks between words of unspaced scripts (`segment.ts`). */
const FULL_TEXT_TAGS = `replace(f.tags, char(${WORD_BREAK.codePointAt(0)}), '')`;

/**
 * Each configured type's count of the matches of `match` (`types` is bound as one JSON value: D1 binds at most 100
 * values, and a type no source has any more cannot be asked for). Where rows are billed, each type's count is a sum in
 * one pass: two values bound per type, so for up to 30 types; past that, grouped.
 */
export function typeCounts(match: string, types: readonly string[], bind: Bind, request: FacetCountsRequest): FacetPart {
  const order = `ORDER BY n DESC, value LIMIT ${request.limit}`;
  if (request.rowsBilled && types.length > 0 && types.length <= 30) {
    const sums = types.map((type) => `${bind(type)}, sum(f.type = ${bind(type)})`).join(', ');
    return {
      ctes: [`facet_types AS MATERIALIZED (SELECT json_object(${sums}) AS counts FROM ${TABLE} f WHERE ${TABLE} MATCH ${match})`],
      select: `SELECT 'f' AS kind, j.key AS value, j.value AS n FROM json_each((SELECT counts FROM facet_types)) j WHERE j.value > 0 ${order}`,
    };
  }
  // Locally from the small `search_docs` row only: naming the full-text row's column at all reads that whole row (the
  // body with it), 40 times the join for a common word.
  const type = request.rowsBilled ? 'f.type' : 'd.type';
  const join = request.rowsBilled ? '' : ` JOIN ${DOCS_TABLE} d ON d.id = f.rowid`;
  return {
    ctes: [
      `facet_types AS MATERIALIZED (SELECT ${type} AS value, count(*) AS n FROM ${TABLE} f${join} WHERE ${TABLE} MATCH ${match}
        AND ${type} IN (SELECT value FROM json_each(${bind(JSON.stringify(types))})) GROUP BY 1)`,
    ],
    select: `SELECT 'f' AS kind, value, n FROM facet_types ${order}`,
  };
}

/**
 * Each tag's count of the matches of `match` (pages with tags only). Locally the matches are grouped by their list of
 * tags (`g` names one page of a group, so that a tag a list repeats counts once), split at spaces (a tag never holds
 * one), and summed. Where rows are billed, the tags of every match are one JSON list, counted from there: a row per
 * tag, none per untagged page.
 */
export function tagCounts(match: string, request: FacetCountsRequest): FacetPart {
  const order = `ORDER BY n DESC, value LIMIT ${request.limit}`;
  if (request.rowsBilled && !request.tagGroups) {
    return {
      ctes: [
        `facet_tag_list AS MATERIALIZED (SELECT '[' || group_concat(CASE WHEN f.tags <> '' THEN replace(json_quote(${FULL_TEXT_TAGS}), ' ', '","') END, ',') || ']' AS tags
          FROM ${TABLE} f WHERE ${TABLE} MATCH ${match})`,
      ],
      select: `SELECT 't' AS kind, value, n FROM (SELECT j.value AS value, count(*) AS n FROM json_each((SELECT tags FROM facet_tag_list)) j WHERE j.value <> '' GROUP BY j.value) ${order}`,
    };
  }
  return {
    ctes: [
      `facet_tag_groups AS MATERIALIZED (SELECT min(f.rowid) AS g, d.tags AS tags, count(*) AS n
        FROM ${TABLE} f JOIN ${DOCS_TABLE} d ON d.id = f.rowid WHERE ${TABLE} MATCH ${match} GROUP BY 2)`,
      `facet_tags(g, n, tag, rest) AS (SELECT g, n, '', tags || ' ' FROM facet_tag_groups WHERE tags <> ''
        UNION ALL SELECT g, n, substr(rest, 1, instr(rest, ' ') - 1), substr(rest, instr(rest, ' ') + 1) FROM facet_tags WHERE rest <> '')`,
    ],
    select: `SELECT 't' AS kind, value, n FROM (SELECT tag AS value, sum(n) AS n FROM (SELECT DISTINCT g, n, tag FROM facet_tags WHERE tag <> '') GROUP BY tag) ${order}`,
  };
}
