import type { SearchDatabase } from './db/types.js';

/** Name of the FTS5 table; the same table as astro-d1-search, so its databases keep working. */
export const TABLE = 'search_index';

/**
 * Bump when the table definition changes (tokenizer, columns): `ensureSchema` then rebuilds the table, and the
 * next index push fills it again.
 */
export const SCHEMA_VERSION = 2;

/** The indexed vocabulary, by trigram: where typo-tolerant search finds the words a misspelling was meant to be. */
export const VOCAB_TABLE = 'search_vocab';

const CREATE_TABLE = `CREATE VIRTUAL TABLE IF NOT EXISTS ${TABLE} USING fts5(
  title, description, content, tags,
  url UNINDEXED, site UNINDEXED, type UNINDEXED, date UNINDEXED, emoji UNINDEXED,
  tokenize = 'porter unicode61 remove_diacritics 2')`;

const CREATE_VOCAB = `CREATE VIRTUAL TABLE IF NOT EXISTS ${VOCAB_TABLE} USING fts5(
  term, site UNINDEXED, type UNINDEXED, tokenize = 'trigram case_sensitive 0 remove_diacritics 1')`;

/** The pages' headed sections, so a result can point at the part of the page that matched. */
export const SECTIONS_TABLE = 'search_sections';

const CREATE_SECTIONS = `CREATE VIRTUAL TABLE IF NOT EXISTS ${SECTIONS_TABLE} USING fts5(
  heading, content, url UNINDEXED, anchor UNINDEXED, site UNINDEXED, type UNINDEXED,
  tokenize = 'porter unicode61 remove_diacritics 2')`;

const CREATE_META = 'CREATE TABLE IF NOT EXISTS search_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)';

/**
 * SQL statements that create the schema when missing, for a D1 migration or a `.sql` push file. A SQL file cannot
 * drop a table conditionally, so it records the version only where none is recorded: a table of an older version
 * keeps saying so, and is never marked current without having been rebuilt.
 */
export function schemaStatements(): string[] {
  return [
    CREATE_META,
    CREATE_TABLE,
    CREATE_VOCAB,
    CREATE_SECTIONS,
    `INSERT INTO search_meta (key, value) VALUES ('schema_version', '${SCHEMA_VERSION}') ON CONFLICT(key) DO NOTHING`,
  ];
}

const RECORD_VERSION = `INSERT INTO search_meta (key, value) VALUES ('schema_version', '${SCHEMA_VERSION}') ON CONFLICT(key) DO UPDATE SET value = excluded.value`;

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
    await db.prepare(`DROP TABLE IF EXISTS ${VOCAB_TABLE}`).run();
    await db.prepare(`DROP TABLE IF EXISTS ${SECTIONS_TABLE}`).run();
  }
  await db.prepare(CREATE_TABLE).run();
  await db.prepare(CREATE_VOCAB).run();
  await db.prepare(CREATE_SECTIONS).run();
  await db.prepare(RECORD_VERSION).run();
  return rebuild;
}
