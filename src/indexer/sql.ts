import type { ResolvedConfig } from '../options.js';
import { schemaStatements, TABLE } from '../schema.js';
import { clean, cutOnWord, type IndexDocument } from './document.js';

/** D1 rejects a statement over 100,000 bytes; stay under it with room for the statement's own text. */
export const D1_MAX_STATEMENT_BYTES = 100_000;

const COLUMNS = ['title', 'description', 'content', 'tags', 'url', 'site', 'type', 'date', 'emoji'] as const;
const INSERT = `INSERT INTO ${TABLE} (${COLUMNS.join(', ')}) VALUES\n`;
const encoder = new TextEncoder();
const bytes = (text: string) => encoder.encode(text).length;

/**
 * A SQL string literal for any text: quotes doubled; NUL, other control characters and lone surrogates (which SQLite
 * or a UTF-8 file cannot carry) removed. Newlines stay: SQL literals may span lines.
 */
export function sqlLiteral(text: string): string {
  return `'${clean(text).replace(/'/g, "''")}'`;
}

/** The statement that removes what a push replaces: this site's rows, or every row when `site` is empty. */
export function deleteStatement(site: string): string {
  return site ? `DELETE FROM ${TABLE} WHERE site = ${sqlLiteral(site)}` : `DELETE FROM ${TABLE}`;
}

/**
 * The SQL that replaces this site's rows in D1: schema, site-scoped delete, multi-row INSERTs each under
 * `maxStatementBytes`, then FTS5 optimize. A row too large for one statement on its own has its body shortened.
 */
export function pushStatements(
  config: ResolvedConfig,
  documents: IndexDocument[],
  { maxStatementBytes = D1_MAX_STATEMENT_BYTES - 1_000 }: { maxStatementBytes?: number } = {},
): string[] {
  const statements = [...schemaStatements(), deleteStatement(config.site)];
  let rows: string[] = [];
  let size = bytes(INSERT);
  const flush = () => {
    if (rows.length) statements.push(INSERT + rows.join(',\n'));
    rows = [];
    size = bytes(INSERT);
  };
  for (const document of documents) {
    const row = fitRow(document, maxStatementBytes - bytes(INSERT));
    const rowBytes = bytes(row) + 2;
    if (size + rowBytes > maxStatementBytes) flush();
    rows.push(row);
    size += rowBytes;
  }
  flush();
  statements.push(`INSERT INTO ${TABLE}(${TABLE}) VALUES ('optimize')`);
  return statements;
}

function rowSql(document: IndexDocument): string {
  return `(${COLUMNS.map((c) => sqlLiteral(document[c])).join(', ')})`;
}

function fitRow(document: IndexDocument, budget: number): string {
  let row = rowSql(document);
  let doc = document;
  while (bytes(row) > budget && doc.content.length > 0) {
    const keep = Math.floor(doc.content.length * (budget / bytes(row)) * 0.9);
    doc = { ...doc, content: cutOnWord(doc.content, keep).content };
    row = rowSql(doc);
  }
  return row;
}

/** Statements as one `.sql` file for `wrangler d1 execute --file`. */
export function toSqlFile(statements: string[]): string {
  return `${statements.join(';\n')};\n`;
}
