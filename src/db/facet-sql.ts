import type { Bind } from './types.js';
import { DOCS_TABLE, TABLE } from './schema.js';

/** What the facet part of a search statement needs to know. */
export interface FacetScope {
  /** `''` for every site. */
  site: string;
  /** `''` for every type. */
  type: string;
  /** Tags every row must carry. */
  tags?: readonly string[];
  /** The facets counted: none means no facet part at all. */
  facets?: readonly ('type' | 'tags')[];
  /** At most this many values per facet, the most frequent first. */
  facetLimit?: number;
  /** Another tool's table: no `search_docs`. */
  bare?: boolean;
  /** `false` for a `search_docs` of schema version 11 and before, which has no `tags`: they are read from the full-text row. */
  docTags?: boolean;
}

/** Where a row's tags are read: the small `search_docs` row, else (another tool's table, an older index) the full-text row. */
export function tagsColumn(scope: FacetScope): string {
  return scope.bare || scope.docTags === false ? 'f.tags' : 'coalesce(d.tags, f.tags)';
}

/**
 * Conditions that the row's `tags` column (space-separated) holds each tag whole: `api` is not found in
 * `api-reference`. The tag is bound with its spaces around it, so nothing in it is SQL or a pattern (no LIKE).
 */
export function tagConditions(column: string, tags: readonly string[], bind: Bind): string[] {
  return tags.map((tag) => `instr(' ' || ${column} || ' ', ${bind(` ${tag} `)}) > 0`);
}

/**
 * The facet counts of a search, in its own statement (one round trip on D1): the table of every row the search's
 * expression (`match`, SQL that gives it) matches in the site and with the tags asked, and one term of the statement's
 * compound SELECT for all the counts (D1 allows five terms; the search uses up to four). Its rows: `f` (a type) and `t`
 * (a tag), the value in `json` and how many matches have it in `score`.
 *
 * A type's count ignores the `type` filter, so a reader sees what choosing another type would find; a tag's count has
 * every filter, so it is what adding that tag would leave (tags are all required). Either way, a count is the number
 * of matches the filter it stands for would give.
 */
export function facetStatementParts(scope: FacetScope, match: string, bind: Bind): { ctes: string[]; part?: string } {
  const facets = scope.facets ?? [];
  if (!facets.length) return { ctes: [] };
  const column = (name: string) => (scope.bare ? `f.${name}` : `coalesce(d.${name}, f.${name})`);
  const where = [`${TABLE} MATCH ${match}`];
  if (scope.site) where.push(`${column('site')} = ${bind(scope.site)}`);
  where.push(...tagConditions(tagsColumn(scope), scope.tags ?? [], bind));
  const counted = facets.includes('tags');
  // The tags are read only when they are counted.
  const ctes = [
    `facet_rows AS MATERIALIZED (SELECT f.rowid AS id, ${column('type')} AS type${counted ? `, ${tagsColumn(scope)} AS tags` : ''}
      FROM ${TABLE} f${scope.bare ? '' : ` LEFT JOIN ${DOCS_TABLE} d ON d.id = f.rowid`} WHERE ${where.join(' AND ')})`,
  ];
  const limit = scope.facetLimit ?? 20;
  const terms: string[] = [];
  if (facets.includes('type')) {
    terms.push(`SELECT 'f' AS kind, value, n FROM (SELECT type AS value, count(*) AS n FROM facet_rows GROUP BY type ORDER BY n DESC, value LIMIT ${limit})`);
  }
  if (counted) {
    // A page's tags, one row each: split at spaces (SQLite has no split function; a tag never holds a space).
    ctes.push(`facet_tags(id, tag, rest) AS (SELECT id, '', tags || ' ' FROM facet_rows${scope.type ? ` WHERE type = ${bind(scope.type)}` : ''}
      UNION ALL SELECT id, substr(rest, 1, instr(rest, ' ') - 1), substr(rest, instr(rest, ' ') + 1) FROM facet_tags WHERE rest <> '')`);
    terms.push(`SELECT 't' AS kind, value, n FROM (SELECT tag AS value, count(DISTINCT id) AS n FROM facet_tags WHERE tag <> '' GROUP BY tag ORDER BY n DESC, value LIMIT ${limit})`);
  }
  const part = `SELECT kind, NULL, n, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, value FROM (${terms.join(' UNION ALL ')})`;
  return { ctes, part };
}
