import type { Bind } from './types.js';
import { DOCS_TABLE, TABLE } from './schema.js';
import { WORD_BREAK } from '../text/segment.js';
import type { TypedMatch } from './judged-types.js';

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
  /** The database bills every row read (D1): the counts read the full-text row alone (see {@link facetStatementParts}). */
  rowsBilled?: boolean;
  /** The configured types: where rows read are billed, each is counted in the one pass over the matches. */
  types?: readonly string[];
  /** Count through groups even where rows are billed: the one pass's list of tags was too long for the database. */
  facetGroups?: boolean;
}

/** The full-text row's tags as values: without the word breaks between words of unspaced scripts (`segment.ts`). */
const FULL_TEXT_TAGS = `replace(f.tags, char(${WORD_BREAK.codePointAt(0)}), '')`;

/** Where a row's tags are read: the small `search_docs` row, else (another tool's table, an older index) the full-text row. */
export function tagsColumn(scope: FacetScope): string {
  return scope.bare || scope.docTags === false ? FULL_TEXT_TAGS : 'coalesce(d.tags, f.tags)';
}

/**
 * Conditions that the row's `tags` column (space-separated) holds each tag whole: `api` is not found in
 * `api-reference`. The tag is bound with its spaces around it, so nothing in it is SQL or a pattern (no LIKE).
 */
export function tagConditions(column: string, tags: readonly string[], bind: Bind): string[] {
  return tags.map((tag) => `instr(' ' || ${column} || ' ', ${bind(` ${tag} `)}) > 0`);
}

/**
 * The facet counts of a search, in its own statement (one round trip on D1): the matches of the search's expression
 * (`match`, SQL that gives it) in the site and with the tags asked, grouped once by type and tags (`facet_groups`: a
 * row per distinct pair, with how many pages have it), and one term of the statement's compound SELECT for all the
 * counts (D1 allows five terms; the search uses up to four). Its rows: `f` (a type) and `t` (a tag), the value in
 * `json` and how many matches have it in `score`.
 *
 * A type's count ignores the `type` filter, so a reader sees what choosing another type would find; a tag's count has
 * every filter, so it is what adding that tag would leave (tags are all required). Either way, a count is the number
 * of matches the filter it stands for would give.
 *
 * What it costs is what the matches are read for once, then the groups (a handful when most pages share their tags).
 * Locally the site, type and tags come from the small `search_docs` row. Where rows read are billed (D1), see
 * {@link onePassParts}.
 */
export function facetStatementParts(scope: FacetScope, match: string | TypedMatch, bind: Bind): { ctes: string[]; part?: string } {
  const facets = scope.facets ?? [];
  if (!facets.length) return { ctes: [] };
  const types = scope.types ?? [];
  // Two values bound per type: D1 binds at most 100 in a statement (json_object takes at most 127 arguments).
  if (scope.rowsBilled && !scope.facetGroups && types.length > 0 && types.length <= 30) return onePassParts(scope, types, match, bind);
  const fullText = scope.bare || scope.rowsBilled === true;
  const column = (name: string) => (fullText ? `f.${name}` : `coalesce(d.${name}, f.${name})`);
  const tags = fullText ? FULL_TEXT_TAGS : tagsColumn(scope);
  const judged = typeof match === 'string' ? undefined : match;
  const where = [`${TABLE} MATCH ${judged?.match ?? match}`];
  if (scope.site) where.push(`${column('site')} = ${bind(scope.site)}`);
  if (judged) where.push(judged.where(column('type')));
  where.push(...tagConditions(tags, scope.tags ?? [], bind));
  const counted = facets.includes('tags');
  // The tags are read only when they are counted. `g` names a group (one of its pages), so that a tag a page's list
  // repeats counts once.
  const ctes = [
    `facet_groups AS MATERIALIZED (SELECT min(f.rowid) AS g, ${column('type')} AS type${counted ? `, ${tags} AS tags` : ''}, count(*) AS n
      FROM ${judged?.from ?? ''}${TABLE} f${fullText ? '' : ` LEFT JOIN ${DOCS_TABLE} d ON d.id = f.rowid`} WHERE ${where.join(' AND ')} GROUP BY 2${counted ? ', 3' : ''})`,
  ];
  const limit = scope.facetLimit ?? 20;
  const terms: string[] = [];
  if (facets.includes('type')) {
    // The configured types only, as in one pass: a type no source has any more cannot be asked for.
    const configured = types.length ? ` WHERE type IN (SELECT value FROM json_each(${bind(JSON.stringify(types))}))` : '';
    terms.push(`SELECT 'f' AS kind, value, n FROM (SELECT type AS value, sum(n) AS n FROM facet_groups${configured} GROUP BY type ORDER BY n DESC, value LIMIT ${limit})`);
  }
  if (counted) {
    // A group's tags, one row each: split at spaces (SQLite has no split function; a tag never holds a space).
    ctes.push(`facet_tags(g, n, tag, rest) AS (SELECT g, n, '', tags || ' ' FROM facet_groups WHERE tags <> ''${scope.type ? ` AND type = ${bind(scope.type)}` : ''}
      UNION ALL SELECT g, n, substr(rest, 1, instr(rest, ' ') - 1), substr(rest, instr(rest, ' ') + 1) FROM facet_tags WHERE rest <> '')`);
    terms.push(`SELECT 't' AS kind, value, n FROM (SELECT tag AS value, sum(n) AS n FROM (SELECT DISTINCT g, n, tag FROM facet_tags WHERE tag <> '') GROUP BY tag ORDER BY n DESC, value LIMIT ${limit})`);
  }
  const part = `SELECT kind, NULL, n, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, value FROM (${terms.join(' UNION ALL ')})`;
  return { ctes, part };
}

/**
 * The counts where rows read are billed (D1), reading each match once and nothing else: D1 counts a row for each match
 * the full-text query yields and one for each row a `GROUP BY` sorts, `search_docs` row joined or intermediate row
 * read, but not the full-text row's own columns. So one aggregate over the matches, without a `GROUP BY`: each
 * configured type's count (a type no source has cannot be asked for), and the tags of the matches in the type asked,
 * as one JSON list (`json_quote` escapes each page's tags, whose spaces then separate the items), counted from there:
 * a row per tag, none per untagged page. The list is as long as those tags: past what the database holds in one value,
 * the search runs again through groups (`facetGroups`).
 */
function onePassParts(scope: FacetScope, types: readonly string[], match: string | TypedMatch, bind: Bind): { ctes: string[]; part: string } {
  const facets = scope.facets ?? [];
  const judged = typeof match === 'string' ? undefined : match;
  const where = [`${TABLE} MATCH ${judged?.match ?? match}`];
  if (scope.site) where.push(`f.site = ${bind(scope.site)}`);
  if (judged) where.push(judged.where('f.type'));
  where.push(...tagConditions(FULL_TEXT_TAGS, scope.tags ?? [], bind));
  const inType = scope.type ? `f.type = ${bind(scope.type)} AND ` : '';
  const counted = facets.includes('tags');
  const columns = [
    ...(facets.includes('type') ? [`json_object(${types.map((t) => `${bind(t)}, sum(f.type = ${bind(t)})`).join(', ')}) AS types`] : []),
    ...(counted ? [`'[' || group_concat(CASE WHEN ${inType}f.tags <> '' THEN replace(json_quote(${FULL_TEXT_TAGS}), ' ', '","') END, ',') || ']' AS tags`] : []),
  ];
  const ctes = [`facet_all AS MATERIALIZED (SELECT ${columns.join(', ')} FROM ${judged?.from ?? ''}${TABLE} f WHERE ${where.join(' AND ')})`];
  const limit = scope.facetLimit ?? 20;
  const terms: string[] = [];
  if (facets.includes('type')) {
    terms.push(`SELECT 'f' AS kind, value, n FROM (SELECT j.key AS value, j.value AS n FROM json_each((SELECT types FROM facet_all)) j WHERE j.value > 0 ORDER BY n DESC, value LIMIT ${limit})`);
  }
  if (counted) {
    terms.push(`SELECT 't' AS kind, value, n FROM (SELECT j.value AS value, count(*) AS n FROM json_each((SELECT tags FROM facet_all)) j WHERE j.value <> '' GROUP BY j.value ORDER BY n DESC, value LIMIT ${limit})`);
  }
  return { ctes, part: `SELECT kind, NULL, n, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, value FROM (${terms.join(' UNION ALL ')})` };
}
