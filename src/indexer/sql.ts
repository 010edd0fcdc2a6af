import type { ResolvedConfig } from '../options/options.js';
import { DAY_OF_DATE, DOCS_TABLE, HASHES_TABLE, HEADINGS_TABLE, MARKDOWN_TABLE, packVocabularyStatements, schemaStatements, SECTIONS_TABLE, syncDocsStatement, syncTitlesStatement, TABLE, TITLES_TABLE, VOCAB_TABLE } from '../db/schema.js';
import { clean, cutOnWord, type IndexDocument } from './document.js';
import { columnValue, markdownInserts, OPTIMIZE_STATEMENTS, pageInsert, pageRemoval, pageRows, PAGE_COLUMNS, sectionInserts, storedRows, type PlannedStatement, type PlanValue } from '../db/write-plan.js';
import { vocabularyOf } from './vocabulary.js';
import { classify, pageHash, pageKey, removedPages, wordChanges, worthOptimizing, type PushCounts, type TargetState } from './changes.js';

/** D1 rejects a statement over 100,000 bytes; stay under it with room for the statement's own text. */
export const D1_MAX_STATEMENT_BYTES = 100_000;

const COLUMNS = PAGE_COLUMNS;
const encoder = new TextEncoder();
const bytes = (text: string) => encoder.encode(text).length;

/**
 * A SQL string literal for any text: quotes doubled; NUL, other control characters and lone surrogates (which SQLite
 * or a UTF-8 file cannot carry) removed. Newlines stay: SQL literals may span lines.
 */
export function sqlLiteral(text: string): string {
  return `'${clean(text).replace(/'/g, "''")}'`;
}

/** `' WHERE site = …'` for a site, `''` when `site` is empty (all rows). */
export function siteWhere(site: string): string {
  return site ? ` WHERE site = ${sqlLiteral(site)}` : '';
}

/** The statement that removes what a push replaces in `table`: this site's rows, or every row when `site` is empty. */
export function deleteStatement(site: string, table: string = TABLE): string {
  return `DELETE FROM ${table}${siteWhere(site)}`;
}

/**
 * The SQL that replaces this site's rows in D1: schema, site-scoped deletes, multi-row INSERTs each under
 * `maxStatementBytes` (documents, then the typo vocabulary), then FTS5 optimize. A row too large for one statement on
 * its own has its body shortened.
 */
export function pushStatements(
  config: ResolvedConfig,
  documents: IndexDocument[],
  { maxStatementBytes = D1_MAX_STATEMENT_BYTES - 1_000 }: { maxStatementBytes?: number } = {},
): string[] {
  const documentRows = documents.map(
    (d) => (budget: number) => fitRow((content, more) => COLUMNS.map((c) => (c === 'content' ? content : c === 'more' ? more : columnValue(d, c))), d.content, d.more ?? '', budget),
  );
  const sections = documents.flatMap((d) => sectionStatements(d, maxStatementBytes));
  const markdown = documents.flatMap((d) => markdownInserts(d).map((p) => render(p, maxStatementBytes)));
  const wordRows = vocabularyOf(documents).map(({ term, type }) => () => `(${sqlLiteral(term)}, ${sqlLiteral(config.site)}, ${sqlLiteral(type)})`);
  const hashRows = documents.map((d) => () => `(${sqlLiteral(d.site)}, ${sqlLiteral(d.url)}, ${sqlLiteral(pageHash(d))})`);
  return [
    ...schemaStatements(),
    deleteStatement(config.site),
    deleteStatement(config.site, TITLES_TABLE),
    deleteStatement(config.site, HEADINGS_TABLE),
    deleteStatement(config.site, SECTIONS_TABLE),
    deleteStatement(config.site, MARKDOWN_TABLE),
    deleteStatement(config.site, VOCAB_TABLE),
    deleteStatement(config.site, HASHES_TABLE),
    ...inserts(`INSERT INTO ${TABLE} (${COLUMNS.join(', ')}) VALUES\n`, documentRows, maxStatementBytes),
    deleteStatement(config.site, DOCS_TABLE),
    syncDocsStatement(siteWhere(config.site)),
    syncTitlesStatement(siteWhere(config.site)),
    ...sections,
    ...markdown,
    ...inserts(`INSERT INTO ${HASHES_TABLE} (site, url, hash) VALUES\n`, hashRows, maxStatementBytes),
    ...inserts(`INSERT INTO ${VOCAB_TABLE} (term, site, type) VALUES\n`, wordRows, maxStatementBytes),
    ...packVocabularyStatements(siteWhere(config.site)),
    ...OPTIMIZE_STATEMENTS,
  ];
}


/** Rows a whole push of `documents` inserts: per page its row, side row, title row and hash, its sections and Markdown; the vocabulary. */
export function rowsInserted(documents: IndexDocument[]): number {
  return documents.reduce((n, d) => n + pageRows(d), 0) + vocabularyOf(documents).length;
}

/**
 * The SQL that brings this site's rows in D1 in line with `documents`, given what the target holds (`state`): only
 * changed, new and removed pages are written, each page's statements on their own (a page's side row takes its
 * FTS5 row's id through last_insert_rowid(), as the SQLite push does), and the vocabulary gains and loses only the
 * words that came and went. Every statement stays under `maxStatementBytes`.
 */
export function changeStatements(
  config: ResolvedConfig,
  documents: IndexDocument[],
  state: TargetState,
  { maxStatementBytes = D1_MAX_STATEMENT_BYTES - 1_000 }: { maxStatementBytes?: number } = {},
): { statements: string[]; counts: PushCounts } {
  const statements: string[] = [...schemaStatements()];
  const counts = { pages: documents.length, added: 0, changed: 0, removed: 0, unchanged: 0 };
  let rows = 0;
  const remove = (site: string, url: string, held: number) => {
    statements.push(...pageRemoval(site, url).map((p) => render(p, maxStatementBytes)));
    rows += held;
  };
  const seen = new Set<string>();
  for (const d of documents) {
    const hash = pageHash(d);
    seen.add(pageKey(d.site, d.url));
    const found = classify(state, d, hash);
    counts[found]++;
    if (found === 'unchanged') continue;
    if (found === 'changed') remove(d.site, d.url, state.rows.get(pageKey(d.site, d.url)) ?? storedRows(0, 0));
    // An added page is removed by URL first too: the file may run after another push added it (two pushes at once),
    // and its hash row would then fail the insert, its page row would be there twice.
    else statements.push(...pageRemoval(d.site, d.url).map((p) => render(p, maxStatementBytes)));
    statements.push(...pageInsert(d, { sql: DAY_OF_DATE(sqlLiteral(d.date)) }, hash).map((p) => render(p, maxStatementBytes)));
    rows += pageRows(d);
  }
  for (const page of removedPages(state, seen)) {
    remove(page.site, page.url, page.rows);
    counts.removed++;
  }
  const words = wordChanges(config.site, vocabularyOf(documents), state);
  const wordRows = words.insert.map(({ term, type }) => () => `(${sqlLiteral(term)}, ${sqlLiteral(config.site)}, ${sqlLiteral(type)})`);
  statements.push(...inserts(`INSERT INTO ${VOCAB_TABLE} (term, site, type) VALUES\n`, wordRows, maxStatementBytes));
  for (let i = 0; i < words.remove.length; i += 500) statements.push(`DELETE FROM ${VOCAB_TABLE} WHERE rowid IN (${words.remove.slice(i, i + 500).join(', ')})`);
  rows += words.insert.length + words.remove.length;
  if (words.insert.length || words.remove.length) statements.push(...packVocabularyStatements(siteWhere(config.site)));
  const result: PushCounts = { ...counts, rowsWritten: rows, full: false };
  if (worthOptimizing(result)) statements.push(...OPTIMIZE_STATEMENTS);
  return { statements, counts: result };
}

/** A page's sections statement (it finds its page through search_docs, whose rowid a SQL file cannot know). */
function sectionStatements(d: IndexDocument, maxStatementBytes: number): string[] {
  return sectionInserts(d).map((p) => render(p, maxStatementBytes));
}

/** A planned statement with literals for its parameters, its shortenable texts cut on a word until it fits `maxBytes`. */
function render(statement: PlannedStatement, maxBytes: number): string {
  const params = [...statement.params];
  let sql = bindLiterals(statement.sql, params);
  for (const i of statement.shortenable ?? []) {
    while (bytes(sql) > maxBytes && String(params[i]).length > 0) {
      const text = String(params[i]);
      params[i] = cutOnWord(text, Math.floor(text.length * Math.min(0.8, (maxBytes / bytes(sql)) * 0.9))).content;
      sql = bindLiterals(statement.sql, params);
    }
  }
  return sql;
}

/** Multi-row INSERTs of `head` + rows, each statement under `maxBytes`. A row gets the byte budget it may use. */
function inserts(head: string, rows: ((budget: number) => string)[], maxBytes: number): string[] {
  const statements: string[] = [];
  const budget = maxBytes - bytes(head);
  let batch: string[] = [];
  let size = 0;
  for (const make of rows) {
    const row = make(budget);
    const rowBytes = bytes(row) + 2;
    if (batch.length > 0 && size + rowBytes > budget) {
      statements.push(head + batch.join(',\n'));
      batch = [];
      size = 0;
    }
    batch.push(row);
    size += rowBytes;
  }
  if (batch.length > 0) statements.push(head + batch.join(',\n'));
  return statements;
}

/** A row of literals; when it is over `budget` bytes on its own, its text past the body, then its body, is shortened until it fits. */
function fitRow(values: (content: string, more: string) => string[], content: string, more: string, budget: number): string {
  const rowSql = () => `(${values(content, more).map(sqlLiteral).join(', ')})`;
  let row = rowSql();
  while (bytes(row) > budget && more.length > 0) {
    more = cutOnWord(more, Math.floor(more.length * Math.min(0.8, (budget / bytes(row)) * 0.9))).content;
    row = rowSql();
  }
  while (bytes(row) > budget && content.length > 0) {
    content = cutOnWord(content, Math.floor(content.length * (budget / bytes(row)) * 0.9)).content;
    row = rowSql();
  }
  return row;
}

/** A statement with its `?` placeholders replaced by literals (an `{ sql }` value as it is). */
function bindLiterals(sql: string, values: PlanValue[]): string {
  let i = 0;
  return sql.replace(/\?/g, () => {
    const value = values[i++]!;
    if (value === null) return 'NULL';
    if (typeof value === 'object') return value.sql;
    return typeof value === 'number' ? String(value) : sqlLiteral(value);
  });
}

/**
 * The two queries that read what a push compares with: this site's pages (row id, URL, hash, number of sections and
 * Markdown parts) and
 * its vocabulary words (row id). With an empty `site` they read every site's rows, which such a push owns. Literals
 * rather than parameters, so `wrangler d1 execute --command` can run them too.
 */
export function targetStateQueries(site: string): [pages: string, words: string] {
  const where = (column: string) => (site ? ` WHERE ${column} = ${sqlLiteral(site)}` : '');
  return [
    `SELECT d.id, d.site, d.url, h.hash, (SELECT count(*) FROM ${SECTIONS_TABLE} s WHERE s.page = d.id) AS sections,
      (SELECT count(*) FROM ${MARKDOWN_TABLE} m WHERE m.page = d.id) AS markdown
      FROM ${DOCS_TABLE} d LEFT JOIN ${HASHES_TABLE} h ON h.site = d.site AND h.url = d.url${where('d.site')}`,
    `SELECT rowid AS id, site, term, type FROM ${VOCAB_TABLE}${where('site')}`,
  ];
}

/** Rows a {@link pagedStateQueries} query reads at a time. */
export const STATE_ROWS_PER_READ = 5_000;
/** URLs a {@link storedPagesQuery} looks up at once: with the site, 65 bound values, under D1's 100 per statement. */
export const URLS_PER_LOOKUP = 64;

const siteIs = (column: string, site: string, join: 'WHERE' | 'AND') => (site ? ` ${join} ${column} = ?` : '');

/**
 * The queries of a push through a database it binds parameters on (the SQLite push, a D1 binding), which never reads
 * the site's pages whole: a million pages read at once came back as a million row objects, and a no-change push
 * peaked at twice the memory of the first push (attack round 3). The site, when there is one, is bound after the
 * other values; with an empty `site` they read every site's rows, which such a push owns.
 */
export const pagedStateQueries = {
  /** How many pages the index holds for the site (`pages`), and how many of them have a hash (`hashed`). */
  held: (site: string) =>
    `SELECT count(*) AS pages, count(h.hash) AS hashed FROM ${DOCS_TABLE} d LEFT JOIN ${HASHES_TABLE} h ON h.site = d.site AND h.url = d.url${siteIs('d.site', site, 'WHERE')}`,
  /** The stored rows (`id`, `url`, `hash`) of `count` URLs of one site: the site bound first, then the URLs. */
  stored: (count: number) =>
    `SELECT d.id, d.url, h.hash FROM ${DOCS_TABLE} d LEFT JOIN ${HASHES_TABLE} h ON h.site = d.site AND h.url = d.url
      WHERE d.site = ? AND d.url IN (${Array(count).fill('?').join(', ')})`,
  /** The next pages (`id`, `site`, `url`) after the row id bound first. */
  pagesAfter: (site: string) =>
    `SELECT id, site, url FROM ${DOCS_TABLE} WHERE id > ?${siteIs('site', site, 'AND')} ORDER BY id LIMIT ${STATE_ROWS_PER_READ}`,
  /** The next vocabulary words (`id`, `site`, `term`, `type`) after the row id bound first. */
  wordsAfter: (site: string) =>
    `SELECT rowid AS id, site, term, type FROM ${VOCAB_TABLE} WHERE rowid > ?${siteIs('site', site, 'AND')} ORDER BY rowid LIMIT ${STATE_ROWS_PER_READ}`,
};

/** Statements as one `.sql` file for `wrangler d1 execute --file`. */
export function toSqlFile(statements: string[]): string {
  return `${statements.join(';\n')};\n`;
}
