import type { SearchDatabase, SearchStatement, SqlValue } from '../../src/index.js';

/**
 * What a wrapper is told: each statement sent to the database (its SQL and bound values, alone or in a batch), each
 * result the driver answered (D1's `meta` is in it), each batch's results together.
 */
interface Hooks {
  onRun?(sql: string, params: SqlValue[]): void;
  onResult?(result: unknown): void;
  onBatch?(results: unknown[]): void;
  /** A batch sent, before its answer. */
  onBatchSent?(): void;
}

/** The methods of a statement that send it to the database (D1 has all four; the SQLite wrappers `all` and `run`). */
const RUNS = new Set<PropertyKey>(['all', 'run', 'first', 'raw']);

/** Behind each wrapped statement: the real one (what the real `batch()` is given), its SQL and its values. */
const wrappedStatements = new WeakMap<object, { statement: SearchStatement; sql: string; params: SqlValue[] }>();

/** A member of `target` as the target itself sees it: methods stay bound to the real object (D1's use private state). */
function member(target: object, key: PropertyKey): unknown {
  const value = Reflect.get(target, key, target) as unknown;
  return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
}

function wrapStatement(sql: string, statement: SearchStatement, params: SqlValue[], hooks: Hooks): SearchStatement {
  const wrapped = new Proxy(statement, {
    get(target, key) {
      if (key === 'bind') return (...values: SqlValue[]) => wrapStatement(sql, target.bind(...values), values, hooks);
      const real = member(target, key);
      if (!RUNS.has(key) || typeof real !== 'function') return real;
      return async (...args: unknown[]) => {
        hooks.onRun?.(sql, params);
        const result = (await (real as (...a: unknown[]) => Promise<unknown>)(...args)) as unknown;
        hooks.onResult?.(result);
        return result;
      };
    },
  });
  wrappedStatements.set(wrapped, { statement, sql, params });
  return wrapped;
}

/**
 * A real database with its statements reported, changing nothing else: the wrapper has every member the database has
 * (a D1 binding's `withSession`, `batch`, `dump`, `exec`; a SQLite wrapper's `exec`, `close`), each the real one bound
 * to it; a session opened through it, and each statement prepared through it or its sessions, is wrapped the same way;
 * `batch` reports each of its statements and runs the real ones on the real database as one batch. So code that tells
 * databases apart by their members (src/db/d1.ts: "this is D1" is `withSession`) takes the path it takes on the real
 * one; test/workers/worker.test.ts › "a counting wrapper leaves the SQL plan as the bare binding chooses it" holds it
 * to that.
 */
function wrapDatabase<D extends SearchDatabase>(db: D, hooks: Hooks): D {
  return new Proxy(db, {
    get(target, key) {
      const real = member(target, key);
      if (typeof real !== 'function') return real;
      if (key === 'prepare') return (sql: string) => wrapStatement(sql, target.prepare(sql), [], hooks);
      if (key === 'withSession') return (...args: unknown[]) => wrapDatabase((real as (...a: unknown[]) => SearchDatabase)(...args), hooks);
      if (key !== 'batch') return real;
      return async (statements: SearchStatement[]) => {
        hooks.onBatchSent?.();
        const known = statements.map((s) => wrappedStatements.get(s));
        for (const k of known) if (k) hooks.onRun?.(k.sql, k.params);
        const results = await (real as (s: SearchStatement[]) => Promise<unknown[]>)(statements.map((s, i) => known[i]?.statement ?? s));
        for (const r of results) hooks.onResult?.(r);
        hooks.onBatch?.(results);
        return results;
      };
    },
  });
}

/**
 * Wraps a real database so a test sees every statement run on it (SQL text and bound values), alone or in a batch,
 * through the database or a session it opens. Every statement still runs on the real driver, and the wrapper has every
 * member the database has: a spy, not a mock, and not a different kind of database.
 */
export function observe<D extends SearchDatabase>(db: D, onRun: (sql: string, params: SqlValue[]) => void): D {
  return wrapDatabase(db, { onRun });
}

/** Counts the statements run on a real database, to prove a path did not touch it or how many round trips it took. */
export function countQueries<D extends SearchDatabase>(db: D): { db: D; count: () => number } {
  let n = 0;
  return { db: observe(db, () => n++), count: () => n };
}

/**
 * Wraps a D1 database (a binding or a session) so that each statement's `meta.rows_read`, what D1 bills, is reported,
 * run alone or in a batch, through the binding or a session it opens. Like {@link observe}, the wrapper has every
 * member of the binding, so a search through it takes the plan it takes on D1.
 */
export function countRowsRead<D extends SearchDatabase>(db: D, onRowsRead: (rows: number) => void): D {
  return wrapDatabase(db, {
    onResult(result) {
      const rows = (result as { meta?: { rows_read?: number } } | null)?.meta?.rows_read;
      if (typeof rows === 'number') onRowsRead(rows);
    },
  });
}

/**
 * Wraps a D1 database so that each `batch()` (one round trip, what an analytics flush is) is counted with the rows D1
 * reports it wrote and read (`meta.rows_written`, `meta.rows_read`: what D1 bills), and the most batches that were
 * ever in flight at once. Like {@link observe}, the wrapper has every member of the binding; the batch runs on the
 * real one.
 */
export function countBatches<D extends SearchDatabase>(db: D): { db: D; batches: number; written: number; read: number; mostInFlight: number } {
  const counts = { batches: 0, written: 0, read: 0, mostInFlight: 0 };
  let inFlight = 0;
  const counted = wrapDatabase(db, {
    onBatchSent() {
      counts.mostInFlight = Math.max(counts.mostInFlight, ++inFlight);
    },
    onBatch(results) {
      inFlight--;
      counts.batches++;
      for (const r of results as { meta?: { rows_written?: number; rows_read?: number } }[]) {
        counts.written += r.meta?.rows_written ?? 0;
        counts.read += r.meta?.rows_read ?? 0;
      }
    },
  });
  return Object.assign(counts, { db: counted });
}
