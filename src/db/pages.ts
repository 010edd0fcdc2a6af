/**
 * Reading whole pages back from the index, for the MCP tools `get_page` and `list_pages` and for llms.txt: the SQL
 * that finds a page by its stored URL and lists a site's pages in URL order. The search never runs these.
 */
import { DOCS_TABLE, SECTIONS_TABLE, TABLE } from './schema.js';
import type { SearchDatabase } from './types.js';

/** A page as the index holds it: its fields, its body text (cut at `maxContentLength`) and its sections' JSON. */
export interface StoredPage {
  url: string;
  title: string;
  description: string;
  type: string;
  date: string;
  tags: string;
  /** The body as indexed: headings and text joined, cut at `maxContentLength` on a word. */
  content: string;
  /** `[[heading, anchor, folded text, text as written], …]` in page order, or null for a page without headings. */
  sections: string | null;
}

/** A page's entry in a listing. */
export interface ListedPage {
  url: string;
  title: string;
  description: string;
  type: string;
}

/** A site's pages with everything a page's Markdown needs; the caller adds conditions after `d.site = ?`. */
const PAGE_SELECT = `SELECT d.url AS url, i.title AS title, i.description AS description, d.type AS type, i.date AS date,
  i.tags AS tags, i.content AS content, s.sections AS sections
  FROM ${DOCS_TABLE} d JOIN ${TABLE} i ON i.rowid = d.id LEFT JOIN ${SECTIONS_TABLE} s ON s.page = d.id WHERE d.site = ?`;

/**
 * The page stored under one of `urls` (tried together: a path with and without its trailing slash), or undefined.
 * One statement: `search_docs` finds the row by its (site, url) index, the FTS5 table and the sections by rowid.
 */
export async function readPage(db: SearchDatabase, site: string, urls: string[]): Promise<StoredPage | undefined> {
  const { results } = await db
    .prepare(
      `${PAGE_SELECT} AND d.url IN (${urls.map(() => '?').join(', ')}) ORDER BY d.id LIMIT 1`,
    )
    .bind(site, ...urls)
    .all<StoredPage>();
  return results[0];
}

/**
 * One page of a site's listing in URL order (of one type when `type` is set): at most `limit` entries from `offset`,
 * and whether more follow (one more row is read to know).
 */
export async function listPages(
  db: SearchDatabase,
  site: string,
  { type, offset, limit }: { type: string; offset: number; limit: number },
): Promise<{ pages: ListedPage[]; more: boolean }> {
  const { results } = await db
    .prepare(
      `SELECT d.url AS url, i.title AS title, i.description AS description, d.type AS type
      FROM ${DOCS_TABLE} d JOIN ${TABLE} i ON i.rowid = d.id
      WHERE d.site = ?${type ? ' AND d.type = ?' : ''} ORDER BY d.url LIMIT ? OFFSET ?`,
    )
    .bind(site, ...(type ? [type] : []), limit + 1, offset)
    .all<ListedPage>();
  return { pages: results.slice(0, limit), more: results.length > limit };
}

/** Every page of a site with its text, in URL order, `batch` at a time (for llms-full.txt). */
export async function* allPages(db: SearchDatabase, site: string, batch = 200): AsyncGenerator<StoredPage> {
  for (let offset = 0; ; offset += batch) {
    const { results } = await db
      .prepare(
        `${PAGE_SELECT} ORDER BY d.url LIMIT ? OFFSET ?`,
      )
      .bind(site, batch, offset)
      .all<StoredPage>();
    yield* results;
    if (results.length < batch) return;
  }
}
