import type { SearchDatabase } from './types.js';
import { WORD_BREAK } from '../text/segment.js';
import { SCOPE_COLUMN } from './scope.js';

/** Name of the FTS5 table; the same table as astro-d1-search, so its databases keep working. */
export const TABLE = 'search_index';

/**
 * Bump when the table definition changes (tokenizer, columns) or what a row holds (version 9: each section's JSON
 * entry gained the start of its text as written, for its snippet; `search_index` and `search_docs` gained a page's
 * `boost`; version 10: `search_vocab_packed`, the vocabulary in a few rows for typo lookups in memory; version 12:
 * `search_docs` gained the page's `tags`, which tag filters and facet counts read instead of the full-text row; version
 * 13: `search_index` gained the `scope` column (src/db/scope.ts) that filters by site, type and tag inside the full-text
 * query, and the vocabulary is packed per site, each word with the types it is in, for the judgement a search makes in
 * memory; version 14: `search_markdown`, each page's Markdown as written and its outline, for assistants):
 * `ensureSchema` then rebuilds the table, and the next index push fills it again.
 */
export const SCHEMA_VERSION = 14;

/**
 * The words of each site and type that typo tolerance may correct a query to, a row per word and type: what a push
 * compares with to write only the words that came and went, and what the packed vocabulary is made from.
 */
export const VOCAB_TABLE = 'search_vocab';

/**
 * The prefix lengths FTS5 indexes (`prefix = '2 3 4 5 6'`) in `search_index` and `search_titles`: a last query word
 * (always a prefix) of up to 6 letters after stemming reads one list. Schema version 4 had `'2 3'`; version 8 added
 * 4 to 6 (docs/decisions.md, "Performance", has what each costs and gains; `npm run bench` measures it).
 */
export const PREFIX_LENGTHS = [2, 3, 4, 5, 6];

/** The longest prefix with an index of its own: a longer one is merged from its words when searched. */
export const PREFIX_INDEX_MAX = Math.max(...PREFIX_LENGTHS);

/**
 * Each page's title in an FTS5 table of its own, keyed by the page's rowid: the field-aware ranking scores a title match
 * on its own length (FTS5's bm25 over `search_index` normalises by the whole row, so a page whose title is the query
 * lost to a long page repeating its words). docs/ranking.md explains the score.
 */
export const TITLES_TABLE = 'search_titles';

/** Copies the titles of one site's `search_index` rows (`where` as for {@link syncDocsStatement}) after a whole push. */
export function syncTitlesStatement(where: string): string {
  return `INSERT OR REPLACE INTO ${TITLES_TABLE} (rowid, title, site) SELECT rowid, title, site FROM ${TABLE}${where}`;
}

/**
 * Each page's headings (levels 2–4, space-separated) in an FTS5 table of their own, keyed by the page's rowid, written
 * from its stored sections: a heading is a short title of part of a page, and scored on its own length it lets a long
 * page whose section answers the query rank like a short page about it (docs/ranking.md, "Sections raise pages"). Not a
 * column of the titles table: its words would count as the titles' in bm25's rarity of a word, and the titles' score
 * fell (MRR@10 0.852 to 0.711 on the Astro docs).
 */
export const HEADINGS_TABLE = 'search_headings';

/** Writes the headings of one site's pages (`where` as for {@link syncDocsStatement}) from their stored sections. */
export function syncHeadingsStatement(where: string): string {
  return `INSERT OR REPLACE INTO ${HEADINGS_TABLE} (rowid, headings, site)
    SELECT s.page, (SELECT group_concat(json_extract(h.value, '$[0]'), ' ') FROM json_each(s.sections) h), s.site FROM ${SECTIONS_TABLE} s${where}`;
}

/**
 * The vocabulary again, packed a few rows per site for the judgement a search makes in memory (src/search/site-vocabulary.ts):
 * a cold Worker reads a dozen rows where the vocabulary table is one row per word and type, each billed on D1. Derived
 * from `search_vocab` by SQL after each push that changes it ({@link packVocabularyStatements}), so it follows that
 * table exactly, whatever wrote the words: a database, a `.sql` file, an incremental push.
 *
 * Per site, each distinct word once, in the words' byte order: `types` is the site's types as a JSON array (the same
 * in every part of a site), and `words` one line per word, `<word> <i>,<j>…`, the positions in `types` of the types it
 * is in. A word in six languages is one line, not six, so a site of many types costs what its distinct words cost.
 */
export const PACKED_VOCAB_TABLE = 'search_vocab_packed';

/**
 * Words per packed row: 10,000 words of at most 40 characters stay under 1 MB even in a script of three UTF-8 bytes a
 * letter (D1 refuses rows over 2 MB); a real site's words average about ten letters, 100 KB a row.
 */
export const WORDS_PER_PACKED_ROW = 10_000;

/**
 * The `search_meta` key whose value changes whenever a push changes the vocabulary (a random 64-bit hex string): what a
 * search process's typo index is cached under, so that a push is noticed without reading the vocabulary again.
 */
export const VOCAB_GENERATION_KEY = 'vocab_generation';

/** Reads the vocabulary's generation (one row, or none for an index pushed before it was recorded). */
export const VOCAB_GENERATION_QUERY = `SELECT value FROM search_meta WHERE key = '${VOCAB_GENERATION_KEY}'`;

/** Reads the packed vocabulary of every site. */
export const PACKED_VOCAB_QUERY = `SELECT site, part, types, words FROM ${PACKED_VOCAB_TABLE}`;

/**
 * Repacks one site's vocabulary (every site's when `site` is empty; `where` is `''` or a `WHERE site = …` clause, as
 * for {@link syncDocsStatement}) from `search_vocab`, and records a new generation. Window functions and an ordered
 * `group_concat` (SQLite 3.44+, D1 included) keep the words and their types in one order whatever order SQLite groups
 * them in.
 */
export function packVocabularyStatements(where: string): string[] {
  return [
    `DELETE FROM ${PACKED_VOCAB_TABLE}${where}`,
    `INSERT INTO ${PACKED_VOCAB_TABLE} (site, part, types, words)
      WITH site_types AS (SELECT site, type, row_number() OVER (PARTITION BY site ORDER BY type) - 1 AS position
          FROM (SELECT DISTINCT site, type FROM ${VOCAB_TABLE}${where})),
        words AS (SELECT v.site, v.term, group_concat(t.position, ',' ORDER BY t.position) AS types
          FROM ${VOCAB_TABLE} v JOIN site_types t ON t.site = v.site AND t.type = v.type GROUP BY v.site, v.term),
        parts AS (SELECT site, term, types, (row_number() OVER (PARTITION BY site ORDER BY term) - 1) / ${WORDS_PER_PACKED_ROW} AS part FROM words)
      SELECT p.site, p.part, (SELECT json_group_array(type) FROM (SELECT type FROM site_types t WHERE t.site = p.site ORDER BY position)),
        group_concat(p.term || ' ' || p.types, char(10) ORDER BY p.term)
      FROM parts p GROUP BY p.site, p.part`,
    `INSERT INTO search_meta (key, value) VALUES ('${VOCAB_GENERATION_KEY}', lower(hex(randomblob(8)))) ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
  ];
}

/**
 * Each row's site, type, day number, boost (NULL: 1) and tags, in a plain table keyed by the FTS5 rowid: filtering,
 * recency, boosts, tag filters and facet counts read this small row instead of the FTS5 content row, which carries the
 * whole body (docs/decisions.md, "Performance"). Its tags are the values the `tags` filter compares: without the word
 * breaks the full-text column has between words of unspaced scripts.
 */
export const DOCS_TABLE = 'search_docs';

/** Day number (days since 1970-01-01 UTC) of a `date` column value, or NULL when it does not start with YYYY-MM-DD. */
export const DAY_OF_DATE = (column: string) =>
  `CASE WHEN ${column} GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' THEN CAST(julianday(substr(${column}, 1, 10)) - 2440587.5 AS INTEGER) END`;

/**
 * Fills `search_docs` from the `search_index` rows of one site (`where` is `''` for all, or a `WHERE site = …`
 * clause): run after inserting a push's documents, in SQLite and in D1 SQL files alike.
 */
export function syncDocsStatement(where: string): string {
  return `INSERT OR REPLACE INTO ${DOCS_TABLE} (id, site, type, day, url, boost, tags) SELECT rowid, site, type, ${DAY_OF_DATE('date')}, url, CAST(NULLIF(boost, '') AS REAL), replace(tags, char(${WORD_BREAK.codePointAt(0)}), '') FROM ${TABLE}${where}`;
}

/**
 * The pages' headed sections, so a result can point at the part of the page that matched. A plain table keyed by
 * page: the search reads the sections of the pages it returns and picks the best in JavaScript.
 */
export const SECTIONS_TABLE = 'search_sections';

/**
 * How much of a section is stored: its start, lowercased and without accents (as `foldWord` makes it). It is only
 * read to choose which section of a result matched best (its heading counts ten times), and folding it once here
 * rather than on every search was most of what the handler added to its SQL.
 */
export const SECTION_MATCH_CHARS = 2000;

/**
 * The most a page's sections JSON holds, in UTF-8 bytes: with the statement around it, well under D1's 100,000-byte
 * statement (a `.sql` file carries it as a literal). A page with more is stored with each section's text shortened.
 */
export const SECTIONS_MAX_BYTES = 60_000;

/**
 * How much of a section's text is kept as written (not folded), for the snippet a result shows under its page: about
 * its first hundred words, where a section says what it is about.
 */
export const SECTION_LEAD_CHARS = 600;

/** Inserts a page's sections, linked to it through `search_docs` (so SQL files need no rowids). */
export const INSERT_SECTIONS = `INSERT INTO ${SECTIONS_TABLE} (page, site, sections)
  VALUES ((SELECT id FROM ${DOCS_TABLE} WHERE site = ? AND url = ?), ?, ?)`;

/**
 * Each page's Markdown as its author wrote it (src/indexer/markdown-as-written.ts), for assistants: `get_page`,
 * llms-full.txt and `<page>.md` read it; a search never does (its own table, keyed by the page, so no search statement
 * reads a byte of it). A page's Markdown is held in parts, in order (`part` 0, 1, …), each small enough for one D1
 * statement; the first part also holds the page's outline as JSON `[[level, heading, anchor, offset], …]`.
 */
export const MARKDOWN_TABLE = 'search_markdown';

/**
 * The most characters a part of a page's Markdown holds with its outline (the outline on the first part only): at up
 * to 3 UTF-8 bytes a character, 90,000 bytes, under D1's 100,000-byte statement with the statement around it.
 */
export const MARKDOWN_PART_CHARS = 30_000;

/** Inserts one part of a page's Markdown, linked to the page through `search_docs` (so SQL files need no rowids). */
export const INSERT_MARKDOWN = `INSERT INTO ${MARKDOWN_TABLE} (page, part, site, markdown, outline)
  VALUES ((SELECT id FROM ${DOCS_TABLE} WHERE site = ? AND url = ?), ?, ?, ?, ?)`;

/**
 * Each page's content hash (everything that reaches the index about it), keyed like the page: a push compares the new
 * pages with these and writes only the difference. A table of its own, so indexes written before it keep working (their
 * next push, finding no hashes, rewrites the site once and records them).
 */
export const HASHES_TABLE = 'search_hashes';

/**
 * The statements that create every table of the index when missing, in order. Built on call, not held in constants: a
 * search never creates a table, and a bundler keeps a module-level template string it cannot prove unused (the
 * Worker shipped them all).
 */
function createStatements(): string[] {
  return [
    // With `prefix`, FTS5 also indexes every word's first 2 to 6 characters. The last query term is always a prefix:
    // without an index of its length, FTS5 merges the lists of every word starting with it, again in each statement that
    // names it (`astro*` at 100,000 documents: about 15 ms a time, against under 3 for the word alone), where with one it
    // reads one list.
    // `scope` holds the page's site, type and tag words (src/db/scope.ts): searches filter inside the full-text query.
    `CREATE VIRTUAL TABLE IF NOT EXISTS ${TABLE} USING fts5(
  title, description, content, tags, more, ${SCOPE_COLUMN},
  url UNINDEXED, site UNINDEXED, type UNINDEXED, date UNINDEXED, emoji UNINDEXED, boost UNINDEXED,
  tokenize = 'porter unicode61 remove_diacritics 2', prefix = '${PREFIX_LENGTHS.join(' ')}')`,
    `CREATE VIRTUAL TABLE IF NOT EXISTS ${TITLES_TABLE} USING fts5(
  title, site UNINDEXED, tokenize = 'porter unicode61 remove_diacritics 2', prefix = '${PREFIX_LENGTHS.join(' ')}')`,
    `CREATE VIRTUAL TABLE IF NOT EXISTS ${HEADINGS_TABLE} USING fts5(
  headings, site UNINDEXED, tokenize = 'porter unicode61 remove_diacritics 2', prefix = '${PREFIX_LENGTHS.join(' ')}')`,
    `CREATE TABLE IF NOT EXISTS ${VOCAB_TABLE} (term TEXT NOT NULL, site TEXT NOT NULL, type TEXT NOT NULL)`,
    `CREATE TABLE IF NOT EXISTS ${PACKED_VOCAB_TABLE} (site TEXT NOT NULL, part INTEGER NOT NULL, types TEXT NOT NULL, words TEXT NOT NULL, PRIMARY KEY (site, part))`,
    `CREATE TABLE IF NOT EXISTS ${DOCS_TABLE} (id INTEGER PRIMARY KEY, site TEXT NOT NULL, type TEXT NOT NULL, day INTEGER, url TEXT NOT NULL, boost REAL, tags TEXT)`,
    `CREATE INDEX IF NOT EXISTS ${DOCS_TABLE}_url ON ${DOCS_TABLE} (site, url)`,
    // One row per page that has sections, keyed by the page's rowid, holding them all as JSON `[[heading, anchor, folded
    // start of the text], …]` in page order: the search reads a result's sections as one row, where a row per section read
    // ten (each billed on D1), and a push writes one row per page. A rowid table: a long page's JSON spills into overflow
    // pages of its own, where a `WITHOUT ROWID` table would leave its b-tree pages mostly empty (docs/decisions.md).
    `CREATE TABLE IF NOT EXISTS ${SECTIONS_TABLE} (page INTEGER PRIMARY KEY, site TEXT NOT NULL, sections TEXT NOT NULL)`,
    `CREATE TABLE IF NOT EXISTS ${HASHES_TABLE} (site TEXT NOT NULL, url TEXT NOT NULL, hash TEXT NOT NULL, PRIMARY KEY (site, url)) WITHOUT ROWID`,
    `CREATE TABLE IF NOT EXISTS ${MARKDOWN_TABLE} (page INTEGER NOT NULL, part INTEGER NOT NULL, site TEXT NOT NULL, markdown TEXT NOT NULL, outline TEXT, PRIMARY KEY (page, part))`,
  ];
}

const CREATE_META = 'CREATE TABLE IF NOT EXISTS search_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)';

/**
 * SQL statements that create the schema when missing, for a D1 migration or a `.sql` push file. A SQL file cannot
 * drop a table conditionally, so it records the version only where none is recorded: a table of an older version
 * keeps saying so, and is never marked current without having been rebuilt.
 */
export function schemaStatements(): string[] {
  return [
    CREATE_META,
    ...createStatements(),
    `INSERT INTO search_meta (key, value) VALUES ('schema_version', '${SCHEMA_VERSION}') ON CONFLICT(key) DO NOTHING`,
  ];
}

/**
 * For a SQL file pushed into an index of another schema version: drops every table (a table's definition is shared by
 * all the sites in the database) and forgets the version, so the schema statements that follow create them anew.
 */
export function rebuildStatements(): string[] {
  return [
    ...[TABLE, TITLES_TABLE, HEADINGS_TABLE, VOCAB_TABLE, PACKED_VOCAB_TABLE, SECTIONS_TABLE, DOCS_TABLE, HASHES_TABLE, MARKDOWN_TABLE].map((t) => `DROP TABLE IF EXISTS ${t}`),
    `DELETE FROM search_meta WHERE key IN ('schema_version', '${VOCAB_GENERATION_KEY}')`,
  ];
}

/**
 * Creates the `search_index` table (and the `search_meta` side table that records its version) when missing, and
 * rebuilds it when it was made by a different schema version. Idempotent. Returns true when the table was rebuilt.
 */
export async function ensureSchema(db: SearchDatabase): Promise<boolean> {
  await db.prepare(CREATE_META).run();
  const { results } = await db
    .prepare("SELECT value FROM search_meta WHERE key = 'schema_version'")
    .all<{ value: string }>();
  const stored = results[0]?.value;
  // A table without a recorded version was made by astro-d1-search with this same definition: keep its rows.
  const rebuild = stored !== undefined && stored !== String(SCHEMA_VERSION);
  if (rebuild) {
    await db.prepare(`DROP TABLE IF EXISTS ${TABLE}`).run();
    await db.prepare(`DROP TABLE IF EXISTS ${TITLES_TABLE}`).run();
    await db.prepare(`DROP TABLE IF EXISTS ${HEADINGS_TABLE}`).run();
    await db.prepare(`DROP TABLE IF EXISTS ${VOCAB_TABLE}`).run();
    await db.prepare(`DROP TABLE IF EXISTS ${PACKED_VOCAB_TABLE}`).run();
    await db.prepare(`DROP TABLE IF EXISTS ${SECTIONS_TABLE}`).run();
    await db.prepare(`DROP TABLE IF EXISTS ${DOCS_TABLE}`).run();
    await db.prepare(`DROP TABLE IF EXISTS ${HASHES_TABLE}`).run();
    await db.prepare(`DROP TABLE IF EXISTS ${MARKDOWN_TABLE}`).run();
    // The vocabulary went with the tables: a search must not judge by the one kept under the old generation.
    await db.prepare(`DELETE FROM search_meta WHERE key = '${VOCAB_GENERATION_KEY}'`).run();
  }
  for (const statement of createStatements()) await db.prepare(statement).run();
  await db
    .prepare(`INSERT INTO search_meta (key, value) VALUES ('schema_version', '${SCHEMA_VERSION}') ON CONFLICT(key) DO UPDATE SET value = excluded.value`)
    .run();
  return rebuild;
}

