/**
 * Reading whole pages back from the index, for the MCP tools `get_page` and `list_pages` and for llms.txt: the SQL
 * that finds a page by its stored URL and lists a site's pages in URL order. The search never runs these.
 */
import { DOCS_TABLE, MARKDOWN_TABLE, SECTIONS_TABLE, TABLE } from './schema.js';
import type { SearchDatabase } from './types.js';

/** A page as the index holds it: its fields, its body text (cut at `maxContentLength`), its sections' JSON and its Markdown. */
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
  /** The page's Markdown as written, its parts joined; null for a page pushed without it. */
  markdown: string | null;
  /** Its outline, JSON `[[level, heading, anchor, offset], …]`; null without Markdown. */
  outline: string | null;
}

/** A page's entry in a listing. */
export interface ListedPage {
  url: string;
  title: string;
  description: string;
  type: string;
}

/** The Markdown of the page `d` as a JSON pair `[outline, markdown]`, its parts read once (null without Markdown). */
const WRITTEN = `(SELECT json_array(max(m.outline), group_concat(m.markdown, '' ORDER BY m.part)) FROM ${MARKDOWN_TABLE} m WHERE m.page = d.id)`;

/** The pair {@link WRITTEN} reads, parsed. */
function parseWritten(written: string | null): { outline: string | null; markdown: string | null } {
  const [outline, markdown] = written ? (JSON.parse(written) as [string | null, string | null]) : [null, null];
  return { outline: markdown === null ? null : outline, markdown };
}

/**
 * A site's pages with everything a page's Markdown needs; the caller adds conditions after `d.site = ?`. The Markdown's
 * parts are read once, by one subquery: its outline (on the first part) and its text, as a JSON pair.
 */
const PAGE_SELECT = `SELECT d.url AS url, i.title AS title, i.description AS description, d.type AS type, i.date AS date,
  i.tags AS tags, i.content AS content, s.sections AS sections, ${WRITTEN} AS written
  FROM ${DOCS_TABLE} d JOIN ${TABLE} i ON i.rowid = d.id LEFT JOIN ${SECTIONS_TABLE} s ON s.page = d.id WHERE d.site = ?`;

/** A row of {@link PAGE_SELECT} as a {@link StoredPage}. */
function storedPage({ written, ...row }: Omit<StoredPage, 'markdown' | 'outline'> & { written: string | null }): StoredPage {
  return { ...row, ...parseWritten(written) };
}

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
    .all<Parameters<typeof storedPage>[0]>();
  return results[0] && storedPage(results[0]);
}

/**
 * The Markdown as written and the outline of the pages stored under `urls` (each page's stored URL among them, with
 * what it holds), read in one statement: for the `search` tool's best sections. A page without Markdown is left out.
 */
export async function readWritten(db: SearchDatabase, site: string, urls: string[]): Promise<Map<string, { markdown: string; outline: string | null }>> {
  const found = new Map<string, { markdown: string; outline: string | null }>();
  if (urls.length === 0) return found;
  const { results } = await db
    .prepare(
      `SELECT d.url AS url, ${WRITTEN} AS written FROM ${DOCS_TABLE} d WHERE d.site = ? AND d.url IN (${urls.map(() => '?').join(', ')})`,
    )
    .bind(site, ...urls)
    .all<{ url: string; written: string | null }>();
  for (const { url, written } of results) {
    const { outline, markdown } = parseWritten(written);
    if (markdown !== null) found.set(url, { markdown, outline });
  }
  return found;
}

/** A listed page's columns, from `search_docs d` and `search_index i`. */
const LISTED_SELECT = 'SELECT d.url AS url, i.title AS title, i.description AS description, d.type AS type';

/**
 * The furthest a listing filtered by type reads in one call: the (site, url) index has no type, so the rows after the
 * cursor are read in URL order and those of other types passed over. Without a bound, a type with few pages on a large
 * site would read every page (D1 bills each row) to fill one call; with it a call reads at most this many rows and says
 * where to go on (the last row it read), whether or not it filled its page.
 */
export const LIST_SCAN_ROWS = 250;

/** One call of a listing: its pages, and the cursor of the next call when more may follow. */
export interface Listing<P> {
  pages: P[];
  /** The URL to pass as `after` for the next pages: the last one listed, or the last one read past. */
  next?: string;
}

/**
 * One part of a site's listing in URL order (of one type when `type` is set): at most `limit` pages whose URL sorts
 * after `after` (keyset paging: a call reads the rows it returns, never the rows before them, as `OFFSET` would).
 * Without a type, `limit + 1` rows are read (the one more tells whether more follow); with a type, at most
 * {@link LIST_SCAN_ROWS}.
 */
export async function listPages(
  db: SearchDatabase,
  site: string,
  { type, after, limit }: { type: string; after: string; limit: number },
): Promise<Listing<ListedPage>> {
  if (!type) {
    const { results } = await db
      .prepare(`${LISTED_SELECT} FROM ${DOCS_TABLE} d JOIN ${TABLE} i ON i.rowid = d.id WHERE d.site = ? AND d.url > ? ORDER BY d.url LIMIT ?`)
      .bind(site, after, limit + 1)
      .all<ListedPage>();
    const pages = results.slice(0, limit);
    return results.length > limit ? { pages, next: pages.at(-1)!.url } : { pages };
  }
  const window = Math.max(LIST_SCAN_ROWS, limit + 1);
  // One row at least (the window's end), with the type's pages in it when there are any. CROSS JOIN keeps the window
  // the outer loop: the planner would otherwise read the whole full-text table and look each row up in the window.

  const { results } = await db
    .prepare(
      `WITH scan AS MATERIALIZED (SELECT id, url, type FROM ${DOCS_TABLE} WHERE site = ? AND url > ? ORDER BY url LIMIT ?),
      ends AS (SELECT max(url) AS scanned, count(*) AS rows_read FROM scan)
      SELECT p.*, e.scanned AS scanned, e.rows_read AS rows_read FROM ends e LEFT JOIN (
        ${LISTED_SELECT} FROM scan d CROSS JOIN ${TABLE} i ON i.rowid = d.id WHERE d.type = ? ORDER BY d.url LIMIT ?
      ) p ON true ORDER BY p.url`,
    )
    .bind(site, after, window, type, limit + 1)
    .all<{ [K in keyof ListedPage]: string | null } & { scanned: string | null; rows_read: number }>();
  const found = results.filter((r) => r.url !== null) as unknown as ListedPage[];
  const pages = found.slice(0, limit).map(({ url, title, description, type }) => ({ url, title, description, type }));
  if (found.length > limit) return { pages, next: pages.at(-1)!.url };
  // The window was read to its end without filling the page: pages of this type may follow further on.
  const end = results[0];
  return end && Number(end.rows_read) >= window && end.scanned ? { pages, next: end.scanned } : { pages };
}

/**
 * Every page of a site with its text, in URL order, `batch` at a time by keyset (each statement reads the rows it
 * returns: the whole site is read once, where `OFFSET` paging read the rows before each batch again, the square of
 * the pages in all): 40 statements at 10,000 pages, under D1 Free's 50 a request. Stops when the caller stops pulling.
 */
export async function* allPages(db: SearchDatabase, site: string, batch = 250): AsyncGenerator<StoredPage> {
  for (let after = ''; ; ) {
    const { results } = await db.prepare(`${PAGE_SELECT} AND d.url > ? ORDER BY d.url LIMIT ?`).bind(site, after, batch).all<Parameters<typeof storedPage>[0]>();
    yield* results.map(storedPage);
    if (results.length < batch) return;
    after = results.at(-1)!.url;
  }
}

/** Every page's URL, title, description and type, in URL order, `batch` at a time by keyset (for llms.txt). */
export async function* allListed(db: SearchDatabase, site: string, batch = 2_000): AsyncGenerator<ListedPage> {
  for (let after = ''; ; ) {
    const { pages, next } = await listPages(db, site, { type: '', after, limit: batch });
    yield* pages;
    if (next === undefined) return;
    after = next;
  }
}
