import type { SearchDatabase } from './types.js';

/** A D1 binding with the Sessions API (what `env.DB` is on Workers since read replication). */
interface D1WithSessions extends SearchDatabase {
  withSession(constraint: 'first-unconstrained' | 'first-primary' | string): SearchDatabase;
}

/**
 * The database a search reads through. A D1 binding with the Sessions API answers from a session that may start on any
 * replica (`first-unconstrained`): searches are reads, and when read replication is on the nearest replica is the
 * fastest, while a push lands on the primary and replicas catch up within moments. Any other database is used as it
 * is. A session is opened per search, as D1 intends (one per request).
 */
export function forSearch(db: SearchDatabase): SearchDatabase {
  return billsRowsRead(db) ? db.withSession('first-unconstrained') : db;
}

/**
 * Whether `db` is a D1 binding (it has the Sessions API). D1 bills every row a statement reads, its own intermediate
 * rows included, and its CPU time is small beside a round trip: a search there takes the plan that reads fewer rows
 * for a little more CPU (src/db/search-plan.ts, `rowsBilled`).
 */
export function billsRowsRead(db: SearchDatabase): db is D1WithSessions {
  return typeof (db as Partial<D1WithSessions>).withSession === 'function';
}
