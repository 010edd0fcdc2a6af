import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { missingIndexMessage, SiteSearchError } from '../errors.js';
import type { SearchDatabase, SearchStatement, SqlValue } from './types.js';

/** Which embedded SQLite to open. */
export type SqliteDriver = 'node:sqlite' | 'better-sqlite3';

/** A local SQLite database: the {@link SearchDatabase} interface plus what the indexer needs. */
export interface SqliteDatabase extends SearchDatabase {
  readonly driver: SqliteDriver;
  batch(statements: SearchStatement[]): Promise<unknown[]>;
  /** Runs one or more statements of plain SQL. */
  exec(sql: string): void;
  /** Runs `fn` in a transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: () => Promise<T> | T): Promise<T>;
  close(): void;
}

/** The part of node:sqlite's StatementSync and better-sqlite3's Statement used here; both have this shape. */
interface NativeStatement {
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): unknown;
  /** better-sqlite3 only: false for statements that return no rows, whose `all()` throws. */
  readonly reader?: boolean;
}

interface NativeDatabase {
  prepare(sql: string): NativeStatement;
  exec(sql: string): unknown;
  close(): unknown;
}

/**
 * Opens a local SQLite file (or `':memory:'`) as a search database. Node's built-in `node:sqlite` (FTS5 compiled in)
 * by default; `{ driver: 'better-sqlite3' }` uses the optional better-sqlite3 package. `busyTimeoutMs` is how long a
 * statement waits for another connection's write (a push) before failing with "database is locked".
 *
 * A file that does not exist is an error naming its absolute path and `npx site-search index` (a server must not
 * create an empty index, and SQLite's own "unable to open database file" says neither), unless `create: true`, which
 * is what the indexer passes.
 */
export function openSqlite(
  path: string,
  { driver = 'node:sqlite', busyTimeoutMs = 5_000, create = false }: { driver?: SqliteDriver; busyTimeoutMs?: number; create?: boolean } = {},
): SqliteDatabase {
  if (!create && path !== ':memory:' && path !== '' && !existsSync(path)) throw new SiteSearchError(missingIndexMessage(path));
  const native = driver === 'better-sqlite3' ? openBetterSqlite3(path) : openNodeSqlite(path);
  // Another connection writing (a push) makes SQLite answer "database is locked" at once unless told to wait.
  native.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
  useWal(native, busyTimeoutMs);
  return wrap(native, driver);
}

/**
 * Puts the file in WAL mode (readers never wait for a push). Switching needs the file to itself, and SQLite does not
 * wait for that through the busy timeout: while another push writes a new file (which it does with a rollback
 * journal), the switch is tried again until the timeout.
 */
function useWal(native: NativeDatabase, timeoutMs: number): void {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      native.exec('PRAGMA journal_mode = WAL');
      return;
    } catch (e) {
      if (!/locked|busy/i.test((e as Error).message) || Date.now() >= deadline) throw e;
      // A synchronous pause: the drivers are synchronous, and so is opening a database.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 25);
    }
  }
}

const require = createRequire(import.meta.url);

function openNodeSqlite(path: string): NativeDatabase {
  const sqlite = process.getBuiltinModule?.('node:sqlite') as typeof import('node:sqlite') | undefined;
  if (!sqlite) {
    throw new SiteSearchError(
      `node:sqlite is not available in Node ${process.versions.node}. Use Node 22.13 or newer, or open the database with { driver: 'better-sqlite3' }.`,
    );
  }
  return new sqlite.DatabaseSync(path);
}

function openBetterSqlite3(path: string): NativeDatabase {
  let Database: new (path: string) => NativeDatabase;
  try {
    Database = require('better-sqlite3');
  } catch (cause) {
    throw new SiteSearchError('better-sqlite3 is not installed. Run "npm install better-sqlite3", or use the default node:sqlite driver.', {
      cause,
    });
  }
  return new Database(path);
}

function wrap(native: NativeDatabase, driver: SqliteDriver): SqliteDatabase {
  // Prepared statements are reused: the search runs the same few SQL shapes over and over.
  const prepared = new Map<string, NativeStatement>();
  const prepare = (sql: string) => {
    let statement = prepared.get(sql);
    if (!statement) {
      if (prepared.size >= 200) prepared.clear();
      statement = native.prepare(sql);
      prepared.set(sql, statement);
    }
    return statement;
  };

  class Statement implements SearchStatement {
    constructor(
      readonly sql: string,
      private readonly params: SqlValue[] = [],
    ) {}
    bind(...values: SqlValue[]): Statement {
      return new Statement(this.sql, values.map((value) => value ?? null));
    }
    async all<Row>(): Promise<{ results: Row[] }> {
      return { results: this.allSync() as Row[] };
    }
    async run(): Promise<unknown> {
      return this.runSync();
    }
    allSync(): unknown[] {
      const statement = prepare(this.sql);
      if (statement.reader === false) {
        statement.run(...this.params);
        return [];
      }
      return statement.all(...this.params);
    }
    runSync(): unknown {
      return prepare(this.sql).run(...this.params);
    }
  }

  let depth = 0;
  const db: SqliteDatabase = {
    driver,
    prepare: (sql) => new Statement(sql),
    exec: (sql) => void native.exec(sql),
    async batch(statements) {
      return db.transaction(() => statements.map((s) => ({ results: (s as Statement).allSync() })));
    },
    async transaction(fn) {
      // Nested calls join the outer transaction, so a batch inside a push stays one unit.
      if (depth > 0) return fn();
      depth++;
      native.exec('BEGIN IMMEDIATE');
      try {
        const result = await fn();
        native.exec('COMMIT');
        return result;
      } catch (e) {
        // On a full disk or an I/O error SQLite has already rolled back, and ROLLBACK would throw over the real error.
        try {
          native.exec('ROLLBACK');
        } catch {}
        throw e;
      } finally {
        depth--;
      }
    },
    close: () => {
      prepared.clear();
      native.close();
    },
  };
  return db;
}
