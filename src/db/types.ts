/**
 * The database interface: the subset of Cloudflare's D1 API that site-search uses. A D1 binding satisfies it as it
 * is; `openSqlite()` wraps node:sqlite and better-sqlite3 into it; any other SQLite with FTS5 (libSQL, bun:sqlite)
 * needs only a wrapper of the same shape.
 */

/** A value bound to a `?` placeholder. */
export type SqlValue = string | number | bigint | null | Uint8Array;

/** Binds values where they appear in a statement's text, returning the placeholder text (`searchStatement`). */
export type Bind = (...values: SqlValue[]) => string;

/** A prepared statement; `bind` returns a statement with those parameters, like D1's. */
export interface SearchStatement {
  bind(...values: SqlValue[]): SearchStatement;
  /** Runs a query and returns its rows. */
  all<Row = Record<string, unknown>>(): Promise<{ results: Row[] }>;
  /** Runs a statement that returns no rows. */
  run(): Promise<unknown>;
}

/** A database site-search can search: D1, or anything shaped like it. */
export interface SearchDatabase {
  prepare(sql: string): SearchStatement;
  /** Runs statements in order, atomically where the driver can (D1 and the SQLite wrappers do). */
  batch?(statements: SearchStatement[]): Promise<unknown[]>;
}

/** True for an object that can stand in as a {@link SearchDatabase}. */
export function isSearchDatabase(value: unknown): value is SearchDatabase {
  return typeof value === 'object' && value !== null && typeof (value as SearchDatabase).prepare === 'function';
}
