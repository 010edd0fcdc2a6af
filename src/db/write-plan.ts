import { cutOnWord } from '../text/cut.js';
import { foldWord } from '../text/fold.js';
import { removeWordBreaks } from '../text/segment.js';
import { DOCS_TABLE, HASHES_TABLE, HEADINGS_TABLE, INSERT_MARKDOWN, INSERT_SECTIONS, MARKDOWN_PART_CHARS, MARKDOWN_TABLE, syncHeadingsStatement, SECTION_LEAD_CHARS, SECTION_MATCH_CHARS, SECTIONS_MAX_BYTES, SECTIONS_TABLE, TABLE, TITLES_TABLE, VOCAB_TABLE } from './schema.js';
import { scopeText } from './scope.js';

/**
 * What a push writes for one page, as statements with `?` parameters: run with bound values on a database (SQLite, a
 * D1 binding), or written out with literals into a `.sql` file for `wrangler d1 execute`. One plan, so every target
 * writes the same rows.
 */

/**
 * FTS5's `optimize` for each full-text table: merges its b-trees into one after a bulk load, which makes queries faster
 * (and rewrites the whole index, which a one-page edit need not cost: `worthOptimizing` decides).
 */
export const OPTIMIZE_STATEMENTS = [TABLE, TITLES_TABLE, HEADINGS_TABLE].map((t) => `INSERT INTO ${t}(${t}) VALUES ('optimize')`);

/** A parameter value; `{ sql }` is an SQL expression, for the `.sql` file only (where JavaScript did not compute it). */
export type PlanValue = string | number | null | { sql: string };

export interface PlannedStatement {
  sql: string;
  params: PlanValue[];
  /** The parameters that may be shortened, in this order, when the statement must fit a size limit (body texts). */
  shortenable?: number[];
}

/** The page fields a push stores. */
export interface PageToWrite {
  title: string;
  description: string;
  content: string;
  /** Space-separated. */
  tags: string;
  /** Relative URL path (`/blog/hello-world/`). */
  url: string;
  site: string;
  type: string;
  /** `YYYY-MM-DD` or `''`. */
  date: string;
  emoji: string;
  /**
   * A long page's text past `maxContentLength`: the start of each later section, bounded. Searched (a page is found by
   * what it says at its end) but never returned. `''` or absent for a page that fits.
   */
  more?: string;
  /**
   * How much more (above 1) or less (below 1) the page counts in the ranking, from its frontmatter's `search.boost`;
   * `''` or absent: 1.
   */
  boost?: string;
  /** Headed sections: heading, anchor, the start of the text (stored folded). */
  sections: { heading: string; anchor: string; content: string }[];
  /**
   * The page's Markdown as written (src/indexer/markdown-as-written.ts), for assistants; never searched. Absent for a
   * page given without it: `get_page` then renders the indexed text.
   */
  markdown?: string;
  /** The Markdown's headings: `[level, text, anchor, offset in the Markdown]`, in order. */
  outline?: OutlineEntry[];
}

/** A heading of a page's Markdown: its level, its text, its anchor on the page and where its line starts. */
export type OutlineEntry = [level: number, text: string, anchor: string, offset: number];

/** The tables a whole push of a site clears (its rows only, or every row when `site` is empty). */
export const SITE_TABLES = [TABLE, TITLES_TABLE, HEADINGS_TABLE, DOCS_TABLE, SECTIONS_TABLE, MARKDOWN_TABLE, VOCAB_TABLE, HASHES_TABLE] as const;

export const PAGE_COLUMNS = ['title', 'description', 'content', 'tags', 'more', 'scope', 'url', 'site', 'type', 'date', 'emoji', 'boost'] as const;

/** A page's value for a column of `search_index`. */
export function columnValue(page: PageToWrite, column: (typeof PAGE_COLUMNS)[number]): string {
  if (column === 'scope') return scopeText(page.site, page.type, pageTags(page));
  return column === 'more' || column === 'boost' ? (page[column] ?? '') : page[column];
}

/** A page's tags as values, as `search_docs` keeps them and the `tags` filter compares them (without word breaks). */
function pageTags(page: Pick<PageToWrite, 'tags'>): string[] {
  return removeWordBreaks(page.tags).split(' ').filter(Boolean);
}

/**
 * The statements that insert one page: its FTS5 row, then the rows keyed by its rowid (found through
 * `last_insert_rowid()`, so a `.sql` file needs no ids), its hash, and its sections (which find the page through
 * `search_docs`). `day` is the page's day number, or the SQL that computes it.
 */
export function pageInsert(page: PageToWrite, day: PlanValue, hash: string): PlannedStatement[] {
  return [
    {
      sql: `INSERT INTO ${TABLE} (${PAGE_COLUMNS.join(', ')}) VALUES (${PAGE_COLUMNS.map(() => '?').join(', ')})`,
      params: PAGE_COLUMNS.map((c) => columnValue(page, c)),
      shortenable: [PAGE_COLUMNS.indexOf('more'), PAGE_COLUMNS.indexOf('content')],
    },
    {
      sql: `INSERT INTO ${DOCS_TABLE} (id, site, type, day, url, boost, tags) VALUES (last_insert_rowid(), ?, ?, ?, ?, ?, ?)`,
      params: [page.site, page.type, day, page.url, page.boost ? Number(page.boost) : null, removeWordBreaks(page.tags)],
    },
    // Right after the side row, whose id is the FTS5 row's: last_insert_rowid() is still the page's rowid.
    { sql: `INSERT INTO ${TITLES_TABLE} (rowid, title, site) VALUES (last_insert_rowid(), ?, ?)`, params: [page.title, page.site] },
    { sql: `INSERT INTO ${HASHES_TABLE} (site, url, hash) VALUES (?, ?, ?)`, params: [page.site, page.url, hash] },
    ...sectionInserts(page),
    ...markdownInserts(page),
  ];
}

/**
 * The statements that insert a page's Markdown, a part each (none for a page without), finding the page through
 * `search_docs` (site and URL), as its sections do.
 */
export function markdownInserts(page: Pick<PageToWrite, 'site' | 'url' | 'markdown' | 'outline'>): PlannedStatement[] {
  return markdownParts(page).map((part, i) => ({ sql: INSERT_MARKDOWN, params: [page.site, page.url, i, page.site, part.text, part.outline] }));
}

/**
 * The outline's JSON holds at most this many characters: a page's first part carries it beside its text. A page with
 * more headings than fit (hundreds of long ones) keeps the first; the later ones are part of the section before them.
 */
const OUTLINE_MAX_CHARS = MARKDOWN_PART_CHARS / 2;

/**
 * A page's Markdown in parts of at most {@link MARKDOWN_PART_CHARS} characters with the outline (on the first), cut
 * at line ends where a line allows (a longer line is cut within it, never inside a surrogate pair).
 */
export function markdownParts(page: Pick<PageToWrite, 'markdown' | 'outline'>): { text: string; outline: string | null }[] {
  if (page.markdown === undefined) return [];
  let outline = page.outline ?? [];
  let json = JSON.stringify(outline);
  while (json.length > OUTLINE_MAX_CHARS) {
    outline = outline.slice(0, Math.floor(outline.length * 0.8));
    json = JSON.stringify(outline);
  }
  const parts: { text: string; outline: string | null }[] = [];
  const text = page.markdown;
  for (let at = 0; at < text.length || parts.length === 0; ) {
    const room = MARKDOWN_PART_CHARS - (parts.length === 0 ? json.length : 0);
    let end = Math.min(text.length, at + room);
    if (end < text.length) {
      const lineEnd = text.lastIndexOf('\n', end - 1);
      if (lineEnd > at) end = lineEnd + 1;
      else if (/[\uD800-\uDBFF]/.test(text[end - 1]!)) end--;
    }
    parts.push({ text: text.slice(at, end), outline: parts.length === 0 ? json : null });
    at = end;
  }
  return parts;
}

/** The statement that inserts a page's sections (none for a page without), finding the page through `search_docs` (site and URL). */
export function sectionInserts(page: Pick<PageToWrite, 'site' | 'url' | 'sections'>): PlannedStatement[] {
  if (page.sections.length === 0) return [];
  return [
    { sql: INSERT_SECTIONS, params: [page.site, page.url, page.site, sectionsJson(page.sections)] },
    // Its headings as stored, as a whole push writes them.
    { sql: syncHeadingsStatement(` WHERE s.page = (SELECT id FROM ${DOCS_TABLE} WHERE site = ? AND url = ?)`), params: [page.site, page.url] },
  ];
}

const encoder = new TextEncoder();

/**
 * A page's sections as the search reads them: JSON `[[heading, anchor, folded text, text as written], …]`, at most
 * {@link SECTIONS_MAX_BYTES}: the folded text (up to {@link SECTION_MATCH_CHARS}) chooses the sections that match,
 * the start as written (up to {@link SECTION_LEAD_CHARS}) is their snippet. Over the cap, every section's texts are
 * shortened alike, and as a last resort the later sections are left out.
 */
export function sectionsJson(sections: PageToWrite['sections']): string {
  const entries = sections.map((s) => [s.heading, s.anchor, foldWord(s.content), s.content] as const);
  const shortened = (chars: number, kept = entries.length) =>
    JSON.stringify(entries.slice(0, kept).map(([h, a, folded, text]) => [h, a, folded.slice(0, chars), cutOnWord(text, Math.min(chars, SECTION_LEAD_CHARS)).content]));
  let chars = SECTION_MATCH_CHARS;
  let json = shortened(chars);
  // A UTF-16 code unit is at most 3 bytes in UTF-8: most pages fit without being encoded to be measured.
  if (json.length * 3 <= SECTIONS_MAX_BYTES) return json;
  for (let size = encoder.encode(json).length; size > SECTIONS_MAX_BYTES && chars > 0; size = encoder.encode(json).length) {
    chars = Math.floor(chars * Math.min(0.8, (SECTIONS_MAX_BYTES / size) * 0.9));
    json = shortened(chars);
  }
  for (let kept = entries.length; encoder.encode(json).length > SECTIONS_MAX_BYTES && kept > 1; ) {
    kept = Math.floor(kept * 0.8);
    json = shortened(0, kept);
  }
  return json;
}

/**
 * The statements that remove one page and everything keyed by it, found by its site and URL rather than by a row id
 * read earlier: a D1 push's SQL file runs after other pushes may have rewritten the page under new ids, and removing
 * by URL clears every copy, so a push that removes before it inserts leaves one row per URL whatever ran in between
 * (docs/security.md, round 3). `search_docs` goes last: the other deletes find the page's ids through it.
 */
export function pageRemoval(site: string, url: string): PlannedStatement[] {
  const ids = `(SELECT id FROM ${DOCS_TABLE} WHERE site = ? AND url = ?)`;
  return [
    { sql: `DELETE FROM ${SECTIONS_TABLE} WHERE page IN ${ids}`, params: [site, url] },
    { sql: `DELETE FROM ${MARKDOWN_TABLE} WHERE page IN ${ids}`, params: [site, url] },
    { sql: `DELETE FROM ${TABLE} WHERE rowid IN ${ids}`, params: [site, url] },
    { sql: `DELETE FROM ${TITLES_TABLE} WHERE rowid IN ${ids}`, params: [site, url] },
    { sql: `DELETE FROM ${HEADINGS_TABLE} WHERE rowid IN ${ids}`, params: [site, url] },
    { sql: `DELETE FROM ${DOCS_TABLE} WHERE site = ? AND url = ?`, params: [site, url] },
    { sql: `DELETE FROM ${HASHES_TABLE} WHERE site = ? AND url = ?`, params: [site, url] },
  ];
}

/**
 * Rows a page's insert writes: its row, side row, title row and hash, its sections' and headings' rows when it has
 * sections, and its Markdown's parts.
 */
export function pageRows(page: Pick<PageToWrite, 'sections' | 'markdown' | 'outline'>): number {
  return storedRows(page.sections.length, markdownParts(page).length);
}

/** Rows a page holds with `sections` sections rows (0 or 1) and `markdownParts` parts of Markdown. */
export function storedRows(sections: number, markdownParts: number): number {
  return 4 + (sections > 0 ? 2 : 0) + markdownParts;
}

/**
 * Vocabulary rows per statement: a site has thousands of words, and through a D1 binding each statement is a round
 * trip (and counts against a Worker's queries per invocation). 33 words bind 99 values, under D1's 100 per statement.
 */
export const WORDS_PER_STATEMENT = 33;
/** Row ids per statement removing words, under D1's 100 bound values. */
export const WORD_IDS_PER_STATEMENT = 99;

/** The vocabulary statements: `n` words of a type gained (term, site, type each), `n` words (by rowid) no page has any more. */
export const insertWords = (n: number) => `INSERT INTO ${VOCAB_TABLE} (term, site, type) VALUES ${Array(n).fill('(?, ?, ?)').join(', ')}`;
export const deleteWords = (n: number) => `DELETE FROM ${VOCAB_TABLE} WHERE rowid IN (${Array(n).fill('?').join(', ')})`;

/** Values as bound parameters: a plan computed for a database never holds SQL expressions. */
export function boundParams(statement: PlannedStatement): (string | number | null)[] {
  return statement.params.map((p) => {
    if (typeof p === 'object' && p !== null) throw new Error(`[site-search] internal: an SQL expression cannot be bound (${statement.sql})`);
    return p;
  });
}
