import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { openSqlite } from '../../adapters/node.js';
import type { SearchDatabase } from '../../src/index.js';
import type { StatementPool } from '../../src/db/sqlite-pool.js';

/** A database under test and how to dispose of it. */
export interface TestDatabase {
  db: SearchDatabase;
  close(): Promise<void>;
}

/** Every driver the contract suite runs against: all real SQLite, D1 inside workerd via Miniflare. */
export const DRIVERS: Record<string, () => Promise<TestDatabase>> = {
  'node:sqlite': async () => {
    const db = openSqlite(':memory:');
    return { db, close: async () => db.close() };
  },
  'better-sqlite3': async () => {
    const db = openSqlite(':memory:', { driver: 'better-sqlite3' });
    return { db, close: async () => db.close() };
  },
  'D1 (Miniflare)': async () => {
    const mf = new Miniflare({
      modules: true,
      script: 'export default { fetch() { return new Response("ok") } }',
      d1Databases: { SEARCH_DB: `test-${Math.random().toString(36).slice(2)}` },
    });
    const db = (await mf.getD1Database('SEARCH_DB')) as unknown as SearchDatabase;
    return { db, close: () => mf.dispose() };
  },
};

/**
 * node:sqlite and better-sqlite3 with their reads in worker threads (`threads`, what a server opening its index gets by
 * default): a file, written in this thread, read by the workers' own connections.
 */
export const POOLED_DRIVERS: Record<string, () => Promise<TestDatabase>> = Object.fromEntries(
  (['node:sqlite', 'better-sqlite3'] as const).map((driver) => [
    `${driver}, reads in worker threads`,
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'site-search-pool-'));
      const db = openSqlite(join(dir, 'search.db'), { driver, create: true, threads: 2 });
      // Until a worker runs, a pool answers in the calling thread: the suite waits, so every read goes to a worker.
      await (db as typeof db & { pool: StatementPool }).pool.ready();
      return { db, close: async () => (db.close(), rmSync(dir, { recursive: true, force: true })) };
    },
  ]),
);

export { countQueries } from './observe.js';
