import type { SearchDatabase, SearchStatement, SqlValue } from '../../src/index.js';

/**
 * Wraps a real database so a test sees every statement run on it (SQL text and bound values). Every statement still
 * runs on the real driver: a spy, not a mock.
 */
export function observe(db: SearchDatabase, onRun: (sql: string, params: SqlValue[]) => void): SearchDatabase {
  const wrap = (sql: string, statement: SearchStatement, params: SqlValue[]): SearchStatement => ({
    bind: (...values) => wrap(sql, statement.bind(...values), values),
    all: () => (onRun(sql, params), statement.all()),
    run: () => (onRun(sql, params), statement.run()),
  });
  return { prepare: (sql) => wrap(sql, db.prepare(sql), []) };
}

/** Counts the statements run on a real database, to prove a path did not touch it. */
export function countQueries(db: SearchDatabase): { db: SearchDatabase; count: () => number } {
  let n = 0;
  return { db: observe(db, () => n++), count: () => n };
}

/** Wraps a D1 database (a binding or a session) so that each statement's `meta.rows_read`, what D1 bills, is reported. */
export function countRowsRead(db: SearchDatabase, onRowsRead: (rows: number) => void): SearchDatabase {
  const wrap = (st: SearchStatement): SearchStatement => ({
    bind: (...values) => wrap(st.bind(...values)),
    all: async <Row>() => {
      const r = (await st.all<Row>()) as { results: Row[]; meta: { rows_read: number } };
      onRowsRead(r.meta.rows_read);
      return r;
    },
    run: () => st.run(),
  });
  return { prepare: (sql) => wrap(db.prepare(sql)) };
}

/**
 * Wraps a D1 database so that each `batch()` (one round trip, what an analytics flush is) is counted with the rows D1
 * reports it wrote and read (`meta.rows_written`, `meta.rows_read`: what D1 bills). The batch runs on the real binding.
 */
export function countBatches(db: SearchDatabase): { db: SearchDatabase; batches: number; written: number; read: number } {
  const counts = { batches: 0, written: 0, read: 0 };
  const counted: SearchDatabase = {
    prepare: (sql) => db.prepare(sql),
    batch: async (statements) => {
      const results = (await db.batch!(statements)) as { meta?: { rows_written?: number; rows_read?: number } }[];
      counts.batches++;
      for (const r of results) {
        counts.written += r.meta?.rows_written ?? 0;
        counts.read += r.meta?.rows_read ?? 0;
      }
      return results;
    },
  };
  return Object.assign(counts, { db: counted });
}
