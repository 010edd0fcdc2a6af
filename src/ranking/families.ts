/**
 * One result per page family (docs/ranking.md, "One result per page family"): pages of the window that are the same
 * page for another version, framework or dialect (the same file name under other folders, the same title, in one
 * type) are one result, shown by the member whose folders the query names, else by the best, at the family's best
 * place; the others are listed as its `variants`. The `distinct` option (on by default) turns it on.
 */
import type { Bind } from '../db/types.js';
import { TITLES_TABLE } from '../db/schema.js';
import { wordsOf } from './expressions.js';
import { isFiller } from './filler.js';
import { versionFolders } from './page-kind.js';
import type { JudgedQuery } from './types.js';

/** The last part of a URL (SQL), without its trailing slash: `/docs/v10/client/setup/` → `setup`. */
function leafOf(url: string): string {
  const path = `rtrim(${url}, '/')`;
  return `substr(${path}, length(rtrim(${path}, replace(${path}, '/', ''))) + 1)`;
}

/**
 * The folder names a query names, as a JSON array: its informative words (`next.js` also as `nextjs`) and the folders
 * its versions are filed under (`v10`: `v10`, `10.x`, `version-10`…).
 */
export function namedFolders(query: Pick<JudgedQuery, 'terms' | 'news'>): string {
  const words = query.terms.flatMap((term) => {
    const parts = wordsOf(term.toLowerCase()).filter((w) => !isFiller(w));
    return parts.length > 1 ? [...parts, parts.join('')] : parts;
  });
  return JSON.stringify([...new Set([...words, ...JSON.parse(versionFolders(query.news.versions))])]);
}

/**
 * A window page's columns for its family (SQL for the `features` select, over its window's rows `w` joined to their
 * `search_docs` rows `d`): `leaf`, its URL's last part, and `shared_title`, its title when another page of the window
 * in its type has the same last part (NULL otherwise: a title is read only for those).
 */
export function familyColumns(): string {
  const leaf = leafOf('d.url');
  return `${leaf} AS leaf, CASE WHEN count(*) OVER (PARTITION BY d.type, ${leaf}) > 1 THEN (SELECT title FROM ${TITLES_TABLE} WHERE rowid = w.id) END AS shared_title`;
}

/** A page's family from its `features` columns (SQL; NULL: a family of its own). */
export const FAMILY = `CASE WHEN shared_title IS NOT NULL THEN type || char(0) || leaf || char(0) || lower(shared_title) END`;

/** How many folders of a page's URL (`url`, split at `/` and `-`) the query names (SQL). */
export function namedCount(query: Pick<JudgedQuery, 'terms' | 'news'>, bind: Bind): string {
  const folders = `('/' || replace(lower(url), '-', '/') || '/')`;
  return `(SELECT count(*) FROM json_each(${bind(namedFolders(query))}) n WHERE instr(${folders}, '/' || n.value || '/') > 0)`;
}

/**
 * `kept(id, score, tier, holds, variants, pick)` from the scored pages (`scored`, SQL: a select of `id, score, tier,
 * holds, family, named, title, url`): each page with its family's best tier and score; `pick` 1 for the page that
 * shows the family (the one whose folders the query names most, then the best), which lists the others, best first,
 * as `variants` (JSON `[[title, url], …]`); 2 and on for those. A page of no family is its own.
 */
export function keptTable(scored: string): string {
  const family = `coalesce(family, 'page ' || id)`;
  // Among the pages the query names alike, the one filed under the fewest folders: the page the others are copies of
  // for another version or framework (`/docs/x` before `/docs/v10/x`).
  const depth = `length(url) - length(replace(url, '/', ''))`;
  const shown = `PARTITION BY ${family} ORDER BY named DESC, ${depth}, tier, score, id`;
  return `kept AS MATERIALIZED (SELECT id, holds,
      first_value(tier) OVER best AS tier, first_value(score) OVER best AS score,
      CASE WHEN family IS NOT NULL THEN json_group_array(json_array(title, url)) OVER (${shown} ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING) END AS variants,
      row_number() OVER (${shown}) AS pick
    FROM (${scored}) WINDOW best AS (PARTITION BY ${family} ORDER BY tier, score, id))`;
}
