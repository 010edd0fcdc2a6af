import { accessSync, constants, existsSync, openSync, readSync, closeSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { damagedIndexMessage, folderNotIndexMessage, isDamagedIndexError, missingIndexMessage, SiteSearchError } from '../errors.js';
import { defaultPoolSize, pooled, StatementPool } from './sqlite-pool.js';
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

/** How {@link openSqlite} opens a file. */
export interface OpenSqliteOptions {
  /** Which embedded SQLite: Node's built-in `node:sqlite` (default) or the optional `better-sqlite3` package. */
  driver?: SqliteDriver;
  /** How long a statement waits for another connection's write (a push) before failing with "database is locked". */
  busyTimeoutMs?: number;
  /** Create the file when it does not exist, open it read-write and in WAL mode: what the indexer passes. */
  create?: boolean;
  /**
   * Open the file read-only (default: true unless `create`; `':memory:'` is always read-write). A server only reads,
   * and read-only is what works on a read-only file system (serverless functions, read-only containers). Pass `false`
   * to write to an existing file yourself (`writeIndex`).
   */
  readOnly?: boolean;
  /**
   * Worker threads that run the reads (`all()`), each with its own read-only connection to the file, so a slow search
   * never holds the server's event loop: other requests and cache hits are answered meanwhile. Default for a file
   * opened read-only (a server): one more than the cores, 3 to 5; for a file opened to write and `':memory:'`: `0`,
   * everything in the calling thread. Writes always run in the calling thread.
   */
  threads?: number;
}

/**
 * Opens a local SQLite file (or `':memory:'`) as a search database. Node's built-in `node:sqlite` (FTS5 compiled in)
 * by default; `{ driver: 'better-sqlite3' }` uses the optional better-sqlite3 package.
 *
 * A file is opened read-only unless `create` or `readOnly: false` is passed, and its journal mode is left as it is:
 * a push leaves its file in rollback-journal mode, which opens read-only with nothing writable beside it, and the push
 * itself switches to WAL while it writes, so a server reading the file never waits for it.
 *
 * A file that does not exist is an error naming the path and `npx site-search index` (a server must not create an
 * empty index, and SQLite's own "unable to open database file" says neither), unless `create: true`. A file that
 * exists but cannot be opened is an error naming why (a WAL-mode file in a read-only folder, or permissions).
 */
export function openSqlite(path: string, { driver = 'node:sqlite', busyTimeoutMs = 5_000, create = false, readOnly, threads }: OpenSqliteOptions = {}): SqliteDatabase {
  const file = path !== ':memory:' && path !== '';
  if (!create && file && !existsSync(path)) throw new SiteSearchError(missingIndexMessage(path));
  if (file && statSync(path, { throwIfNoEntry: false })?.isDirectory()) throw new SiteSearchError(folderNotIndexMessage(path));
  const readOnlyFile = file && (readOnly ?? !create);
  const native = readOnlyFile ? openReadOnly(path, driver) : openNative(path, driver, false);
  // Another connection writing (a push) makes SQLite answer "database is locked" at once unless told to wait.
  native.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
  if (!readOnlyFile) useWal(native, busyTimeoutMs);
  const db = wrap(native, driver);
  const size = file ? Math.max(0, Math.floor(threads ?? (readOnlyFile ? defaultPoolSize() : 0))) : 0;
  if (size === 0) return db;
  const location = openedAs.get(native) ?? path;
  const target = { location, isUrl: location !== path, driver, busyTimeoutMs: Math.max(0, Math.floor(busyTimeoutMs)) };
  return pooled(db, new StatementPool(driver === 'better-sqlite3' ? { ...target, betterSqlite3: betterSqlite3Entry() } : target, size));
}

/**
 * Where better-sqlite3 is, for the pool's workers. In a `try`, as bundlers (Next.js's Turbopack) require of an optional
 * package; a bundle may answer a module id rather than a path, and the workers then resolve it from the working folder.
 */
function betterSqlite3Entry(): string | undefined {
  try {
    const entry: unknown = require.resolve('better-sqlite3');
    return typeof entry === 'string' ? entry : undefined;
  } catch {
    return undefined;
  }
}

/** The `file:` URL a connection was opened with when it is not its path (a WAL file read as immutable). */
const openedAs = new WeakMap<NativeDatabase, string>();

function openNative(path: string | URL, driver: SqliteDriver, readOnly: boolean): NativeDatabase {
  return driver === 'better-sqlite3' ? openBetterSqlite3(path as string, readOnly) : openNodeSqlite(path, readOnly);
}

/**
 * Opens a file read-only and reads its first page, where SQLite finds out whether it can: a WAL-mode file needs its
 * `-shm` file, which a read-only folder cannot hold. node:sqlite then reads it as immutable (nothing can write a file in
 * a read-only folder, so there is no change to watch for); better-sqlite3 takes no URI, so the error says what to do.
 */
function openReadOnly(path: string, driver: SqliteDriver): NativeDatabase {
  const native = openNative(path, driver, true);
  try {
    native.prepare('SELECT 1 FROM sqlite_schema LIMIT 1').all();
    return native;
  } catch (e) {
    native.close();
    // A truncated file, or one that is not SQLite, fails here: the error names the file and the fix, not only SQLite's words.
    if (isDamagedIndexError(e)) throw new SiteSearchError(damagedIndexMessage(path, (e as Error).message), { cause: e });
    if (!/unable to open database file/i.test((e as Error).message)) throw e;
    const wal = inWalMode(path);
    const folderWritable = canWrite(dirname(resolve(path)));
    if (wal && !folderWritable && driver === 'node:sqlite') {
      const url = pathToFileURL(resolve(path));
      url.searchParams.set('immutable', '1');
      const immutable = openNative(url, driver, true);
      immutable.prepare('SELECT 1 FROM sqlite_schema LIMIT 1').all();
      openedAs.set(immutable, url.href);
      return immutable;
    }
    throw new SiteSearchError(cannotOpenMessage(path, wal, folderWritable), { cause: e });
  }
}

/** Why a file that exists could not be opened, and the fix; the path as given (a route answers this to visitors). */
function cannotOpenMessage(path: string, wal: boolean, folderWritable: boolean): string {
  if (wal && !folderWritable) {
    return (
      `Could not open the search index at ${path}: it is in WAL mode, which needs a writable folder beside the file, and its folder is read-only. ` +
      'Rebuild it with "npx site-search index" while no server has it open (a push leaves the file in rollback-journal mode), or open it with the default node:sqlite driver.'
    );
  }
  return `Could not open the search index at ${path} (unable to open database file). Check that the server's user can read the file and its folder.`;
}

/** Whether the file's header says WAL: its read and write format versions (bytes 18 and 19) are 2, 1 otherwise. */
function inWalMode(path: string): boolean {
  const header = Buffer.alloc(2);
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    return readSync(fd, header, 0, 2, 18) === 2 && header[0] === 2 && header[1] === 2;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function canWrite(folder: string): boolean {
  try {
    accessSync(folder, constants.W_OK);
    return true;
  } catch {
    return false;
  }
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

function openNodeSqlite(path: string | URL, readOnly: boolean): NativeDatabase {
  const sqlite = process.getBuiltinModule?.('node:sqlite') as typeof import('node:sqlite') | undefined;
  if (!sqlite) {
    throw new SiteSearchError(
      `node:sqlite is not available in Node ${process.versions.node}. Use Node 22.13 or newer, or open the database with { driver: 'better-sqlite3' }.`,
    );
  }
  return new sqlite.DatabaseSync(path, { readOnly });
}

function openBetterSqlite3(path: string, readonly: boolean): NativeDatabase {
  let Database: new (path: string, options: { readonly: boolean }) => NativeDatabase;
  try {
    Database = require('better-sqlite3');
  } catch (cause) {
    throw new SiteSearchError('better-sqlite3 is not installed. Run "npm install better-sqlite3", or use the default node:sqlite driver.', {
      cause,
    });
  }
  return new Database(path, { readonly });
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
  const rollback = () => {
    // On a full disk or an I/O error SQLite has already rolled back, and ROLLBACK would throw over the real error.
    try {
      native.exec('ROLLBACK');
    } catch {}
  };
  const db: SqliteDatabase = {
    driver,
    prepare: (sql) => new Statement(sql),
    exec: (sql) => void native.exec(sql),
    async batch(statements) {
      const run = () => statements.map((s) => ({ results: (s as Statement).allSync() }));
      if (depth > 0) return run();
      // One synchronous transaction: nothing else of this thread runs between its BEGIN and its COMMIT. Two connections
      // of one process to one file (the endpoint's and the MCP server's analytics) would otherwise deadlock: the second
      // BEGIN waits for a lock the first holds across an await, and the busy timeout blocks the one thread that could
      // release it, then fails with "database is locked" (issue 54, item 6). Another process's lock is waited for.
      native.exec('BEGIN IMMEDIATE');
      try {
        const results = run();
        native.exec('COMMIT');
        return results;
      } catch (e) {
        rollback();
        throw e;
      }
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
        rollback();
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
