import type { ResolvedConfig } from '../options.js';
import { DOCS_TABLE, INSERT_SECTION, schemaStatements, SECTIONS_TABLE, syncDocsStatement, TABLE, VOCAB_TABLE } from '../schema.js';
import { clean, cutOnWord, type IndexDocument } from './document.js';
import { foldWord } from '../fold.js';
import { vocabularyOf } from './vocabulary.js';

/** D1 rejects a statement over 100,000 bytes; stay under it with room for the statement's own text. */
export const D1_MAX_STATEMENT_BYTES = 100_000;

const COLUMNS = ['title', 'description', 'content', 'tags', 'url', 'site', 'type', 'date', 'emoji'] as const;
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
    (d) => (budget: number) => fitRow((content) => COLUMNS.map((c) => (c === 'content' ? content : d[c])), d.content, budget),
  );
  // One statement per section: each finds its page through search_docs, which a SQL file cannot know the rowid of.
  const sections = documents.flatMap((d) =>
    d.sections.map((s, i) => {
      let content = foldWord(s.content);
      let sql = bindLiterals(INSERT_SECTION, [d.site, d.url, i, d.site, s.heading, s.anchor, content]);
      while (bytes(sql) > maxStatementBytes && content.length > 0) {
        content = cutOnWord(content, Math.floor(content.length * 0.8)).content;
        sql = bindLiterals(INSERT_SECTION, [d.site, d.url, i, d.site, s.heading, s.anchor, content]);
      }
      return sql;
    }),
  );
  const wordRows = vocabularyOf(documents).map(({ term, type }) => () => `(${sqlLiteral(term)}, ${sqlLiteral(config.site)}, ${sqlLiteral(type)})`);
  return [
    ...schemaStatements(),
    deleteStatement(config.site),
    deleteStatement(config.site, SECTIONS_TABLE),
    deleteStatement(config.site, VOCAB_TABLE),
    ...inserts(`INSERT INTO ${TABLE} (${COLUMNS.join(', ')}) VALUES\n`, documentRows, maxStatementBytes),
    deleteStatement(config.site, DOCS_TABLE),
    syncDocsStatement(siteWhere(config.site)),
    ...sections,
    ...inserts(`INSERT INTO ${VOCAB_TABLE} (term, site, type) VALUES\n`, wordRows, maxStatementBytes),
    `INSERT INTO ${TABLE}(${TABLE}) VALUES ('optimize')`,
    `INSERT INTO ${VOCAB_TABLE}(${VOCAB_TABLE}) VALUES ('optimize')`,
  ];
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

/** A row of literals; when it is over `budget` bytes on its own, its body text is shortened until it fits. */
function fitRow(values: (content: string) => string[], content: string, budget: number): string {
  const rowSql = (text: string) => `(${values(text).map(sqlLiteral).join(', ')})`;
  let row = rowSql(content);
  while (bytes(row) > budget && content.length > 0) {
    content = cutOnWord(content, Math.floor(content.length * (budget / bytes(row)) * 0.9)).content;
    row = rowSql(content);
  }
  return row;
}

/** A statement with its `?` placeholders replaced by literals. */
function bindLiterals(sql: string, values: (string | number)[]): string {
  let i = 0;
  return sql.replace(/\?/g, () => {
    const value = values[i++]!;
    return typeof value === 'number' ? String(value) : sqlLiteral(value);
  });
}

/** Statements as one `.sql` file for `wrangler d1 execute --file`. */
export function toSqlFile(statements: string[]): string {
  return `${statements.join(';\n')};\n`;
}
