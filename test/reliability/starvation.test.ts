/**
 * Issue 44, item 3: a slow statement must not hold every other request of a Node server. The statement is made slow
 * the way a server meets it: another connection holds the file's write lock (a push writing a rollback-journal file),
 * so the search's read waits in SQLite's busy handler. Asserted by the order of events, never by wall-clock limits:
 * a cache hit sent while that search waits is answered before it; once the lock is gone the search answers 200.
 * And the worker pool takes clients in turn: a client's backlog waits behind its own statements only.
 */
import { createRequire } from 'node:module';
import { DatabaseSync } from 'node:sqlite';
import { createServer, get, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlite, toNodeListener } from '../../adapters/node.js';
import { createSearchHandler, resolveConfig } from '../../src/index.js';
import type { StatementPool } from '../../src/db/sqlite-pool.js';
import { asClient } from '../../src/http/node-listener.js';
import type { SqliteDatabase } from '../../src/db/sqlite.js';
import { seed, siteDocs } from '../helpers/documents.js';

const config = resolveConfig({ database: 'starvation', sources: [{ dir: 'docs', type: 'doc', url: '/docs/:slug' }] });
const dir = mkdtempSync(join(tmpdir(), 'site-search-starvation-'));
const file = join(dir, 'search.db');

beforeAll(async () => {
  const writer = openSqlite(file, { create: true });
  await seed(writer, siteDocs());
  // A rollback journal, as a push leaves the file: a writer's lock then keeps readers waiting (WAL readers never wait).
  writer.exec('PRAGMA journal_mode = DELETE');
  writer.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const poolOf = (db: SqliteDatabase) => (db as SqliteDatabase & { pool: StatementPool }).pool;

/** A GET from `localAddress`, resolving with its status, cache header and when it ended (an order number). */
let ended = 0;
function ask(port: number, path: string, localAddress = '127.0.0.1') {
  return new Promise<{ status: number; cache: string; order: number; body: string }>((resolve, reject) => {
    get({ host: '127.0.0.1', port, path, localAddress, agent: false }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, cache: String(res.headers['x-search-cache']), order: ++ended, body }));
    }).on('error', reject);
  });
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((ok) => server.listen(0, '0.0.0.0', ok));
  return (server.address() as { port: number }).port;
}

/**
 * Holds the file's exclusive lock from a connection of its own until `release()`. Of the reader's driver: two copies of
 * SQLite in one process do not see each other's locks (POSIX locks are per process), as a push in its own process is.
 */
function lockFile(driver: 'node:sqlite' | 'better-sqlite3' = 'node:sqlite') {
  const holder: { exec(sql: string): unknown; close(): unknown } =
    driver === 'better-sqlite3' ? new (createRequire(import.meta.url)('better-sqlite3'))(file) : new DatabaseSync(file);
  holder.exec('BEGIN EXCLUSIVE');
  return {
    release: () => {
      holder.exec('ROLLBACK');
      holder.close();
    },
  };
}

describe.each(['node:sqlite', 'better-sqlite3'] as const)('a slow statement does not hold the server (%s)', (driver) => {
  let server: Server;
  let port = 0;
  beforeAll(async () => {
    // openSqlite as users call it: a file opened read-only gets the worker pool by default.
    const db = openSqlite(file, { driver, busyTimeoutMs: 10_000 });
    await poolOf(db).ready();
    server = createServer(toNodeListener(createSearchHandler(config, { db })));
    port = await listen(server);
  });
  afterAll(() => new Promise((done) => server.close(done)));

  it('answers a cache hit while another search waits for the database, then that search', async () => {
    const cached = '/api/search?q=astro';
    expect((await ask(port, cached)).cache).toBe('MISS');
    const lock = lockFile(driver);
    let waiting: Promise<Awaited<ReturnType<typeof ask>>> | undefined;
    try {
      waiting = ask(port, '/api/search?q=components');
      let settled = false;
      void waiting.finally(() => (settled = true));
      // Long enough for the server to have started the search (it then waits on the lock), on any machine.
      await new Promise((r) => setTimeout(r, 300));
      const hit = await ask(port, cached);
      expect(hit).toMatchObject({ status: 200, cache: 'HIT' });
      expect(settled).toBe(false);
    } finally {
      lock.release();
    }
    const slow = await waiting!;
    expect(slow.status).toBe(200);
    expect(slow.cache).toBe('MISS');
    expect((JSON.parse(slow.body) as { results: unknown[] }).results.length).toBeGreaterThan(0);
  }, 30_000);
});

/**
 * A pool of `threads` workers, once its first runs (until then a pool runs statements in the calling thread), and a
 * statement asked for as `client` that notes its `name` in `done` when it ends.
 */
async function pool(threads: number) {
  const db = openSqlite(file, { threads });
  await poolOf(db).ready();
  const done: string[] = [];
  const statement = (client: string, name: string) =>
    asClient(client, () => db.prepare('SELECT count(*) AS n FROM search_index').all().then(() => void done.push(name)));
  return { db, done, statement };
}

describe('the worker pool takes clients in turn', () => {
  it('runs one client’s statement before another client’s backlog', async () => {
    const { db, done, statement } = await pool(1);
    try {
      // Held by the lock, the first statement keeps the one worker busy while the others queue behind it.
      const lock = lockFile();
      const all = [statement('a', 'a1'), statement('a', 'a2'), statement('a', 'a3'), statement('b', 'b1')];
      await new Promise((r) => setTimeout(r, 100));
      lock.release();
      await Promise.all(all);
      expect(done).toEqual(['a1', 'b1', 'a2', 'a3']);
    } finally {
      db.close();
    }
  });

  it('gives a client with a backlog no more than its share of the workers while another client is present', async () => {
    const { db, done, statement } = await pool(3);
    try {
      const lock = lockFile();
      // b is present; a asks for two at once: with two clients present each may run one of the three workers, so a2
      // waits for a1 even though a worker is free, and a third client's statement takes that worker at once.
      const all = [statement('b', 'b1'), statement('a', 'a1'), statement('a', 'a2')];
      await new Promise((r) => setTimeout(r, 50));
      expect(poolOf(db).stateOf('a')).toEqual({ running: 1, waiting: 1 });
      all.push(statement('c', 'c1'));
      await new Promise((r) => setTimeout(r, 50));
      expect(poolOf(db).stateOf('c')).toEqual({ running: 1, waiting: 0 });
      expect(poolOf(db).stateOf('a')).toEqual({ running: 1, waiting: 1 });
      lock.release();
      await Promise.all(all);
      expect(done.indexOf('a1')).toBeLessThan(done.indexOf('a2'));
      // Once its statements are done, a client is not kept (its address, through the Node bridge).
      expect(poolOf(db).stateOf('a')).toEqual({ running: 0, waiting: 0 });
    } finally {
      db.close();
    }
  });

  it('over HTTP, by the connection’s address: a second address is answered before the first one’s backlog', async () => {
    const db = openSqlite(file, { threads: 1, busyTimeoutMs: 10_000 });
    const server = createServer(toNodeListener(createSearchHandler(config, { db, cache: false })));
    const port = await listen(server);
    await poolOf(db).ready();
    try {
      const lock = lockFile();
      // One address with a backlog of three searches, then another address with one.
      const backlog = ['astro', 'components', 'content'].map((q) => ask(port, `/api/search?q=${q}`, '127.0.0.1'));
      await new Promise((r) => setTimeout(r, 200));
      const other = ask(port, '/api/search?q=routing', '127.0.0.2');
      await new Promise((r) => setTimeout(r, 200));
      lock.release();
      const answers = await Promise.all([...backlog, other]);
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      // The first search held the worker; the other address's search went next, ahead of the rest of the backlog (in a
      // queue in arrival order it would be answered last).
      expect(answers[3]!.order).toBeLessThan(Math.max(answers[1]!.order, answers[2]!.order));
    } finally {
      await new Promise((done) => server.close(done));
      db.close();
    }
  }, 30_000);
});

describe('the worker pool', () => {
  it('fails a statement in flight when the database is closed, rather than leaving it waiting', async () => {
    const db = openSqlite(file, { threads: 1, busyTimeoutMs: 10_000 });
    await poolOf(db).ready();
    const lock = lockFile();
    try {
      const waiting = db.prepare('SELECT count(*) AS n FROM search_index').all();
      const queued = db.prepare('SELECT 1 AS one').all();
      await new Promise((r) => setTimeout(r, 100));
      db.close();
      await expect(waiting).rejects.toThrow(/closed while a statement waited/);
      await expect(queued).rejects.toThrow(/closed while a statement waited/);
    } finally {
      lock.release();
    }
  });
});

