import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { SqliteDatabase, SqliteDriver } from './sqlite.js';
import type { SearchStatement, SqlValue } from './types.js';

/** What a pool's workers open: the file (or the `file:` URL it was opened as), with the same driver and busy timeout. */
export interface PoolTarget {
  /** A path, or a `file:` URL (a read-only WAL file read as immutable). */
  location: string;
  isUrl: boolean;
  driver: SqliteDriver;
  busyTimeoutMs: number;
  /**
   * better-sqlite3's entry, resolved here: a worker started from source text resolves from no module of its own (when
   * absent, the workers look in the working folder's node_modules).
   */
  betterSqlite3?: string;
}

/**
 * Who a statement is run for, as the layer that knows names it (see {@link groupStatementsBy}): a client's statements
 * wait behind each other, not in front of another client's. Opaque here; held only while its statements wait or run.
 */
export type ClientKey = unknown;

/**
 * How long a client counts as present after it last asked for a statement. While two or more clients are present, each
 * may run at most its share of the workers at once (never less than one).
 */
const PRESENT_MS = 1_000;

/** Names the client of the statement about to run; until a layer above says otherwise, every statement is one client's. */
let clientOfStatement: () => ClientKey = () => undefined;

/**
 * Groups the pools' statements by client from now on: `read` names the client of the statement about to run, from the
 * context it runs in. The database layer never sees a request, nor learns what a client is: the Node listener
 * (`toNodeListener`) registers the connection's remote address, so a client's backlog waits behind its own statements.
 */
export function groupStatementsBy(read: () => ClientKey): void {
  clientOfStatement = read;
}

/**
 * Worker threads a read-only index gets by default: one more than the cores, at least 3 and at most 5. A client sending
 * requests back to back holds a worker per connection; one left over starts a reader's statement at once, and the
 * operating system shares the cores between them (docs/decisions.md, "Statements off the event loop").
 */
export function defaultPoolSize(): number {
  return Math.min(5, Math.max(3, availableParallelism() + 1));
}

/** One statement for a worker, and who asked for it. */
interface Job {
  sql: string;
  params: SqlValue[];
  client: ClientKey;
  resolve: (rows: unknown[]) => void;
  reject: (e: unknown) => void;
}

type Reply = { id: number; rows: unknown[] } | { id: number; error: { message: string; name: string; code?: unknown; errcode?: unknown; errstr?: unknown } };

/**
 * The worker's program, as source text rather than a file: bundlers (Next.js, Vite, @vercel/nft) copy the modules they
 * trace, and a worker file beside this module is one they would not know to copy. It holds one read-only connection
 * and runs one message at a time: node:sqlite and better-sqlite3 are synchronous, which is why they run here and not
 * on the server's event loop.
 */
const WORKER_SOURCE = `
const { parentPort, workerData: t } = require('node:worker_threads');
const native = t.driver === 'better-sqlite3'
  ? new (require(t.betterSqlite3 || require('node:path').join(process.cwd(), 'node_modules', 'better-sqlite3')))(t.location, { readonly: true })
  : new (process.getBuiltinModule('node:sqlite').DatabaseSync)(t.isUrl ? new URL(t.location) : t.location, { readOnly: true });
native.exec('PRAGMA busy_timeout = ' + t.busyTimeoutMs);
const prepared = new Map();
const prepare = (sql) => {
  let s = prepared.get(sql);
  if (!s) {
    if (prepared.size >= 200) prepared.clear();
    s = native.prepare(sql);
    prepared.set(sql, s);
  }
  return s;
};
parentPort.on('message', ({ id, sql, params }) => {
  try {
    const s = prepare(sql);
    if (s.reader === false) s.run(...params);
    parentPort.postMessage({ id, rows: s.reader === false ? [] : s.all(...params) });
  } catch (e) {
    parentPort.postMessage({ id, error: { message: String(e && e.message), name: String(e && e.name), code: e && e.code, errcode: e && e.errcode, errstr: e && e.errstr } });
  }
});
`;


/**
 * A pool of worker threads, each with its own read-only connection to one file, that runs statements off the event
 * loop. Jobs wait in one queue per client, and a free worker takes the next job from the clients in turn, a client
 * with a statement already running going after those without: a client that sends many requests at once (several
 * connections' worth, or pipelined) cannot fill the pool ahead of everyone else. Workers start on the first statement
 * and keep the process alive only while they run one.
 */
export class StatementPool {
  private readonly workers: { worker: Worker; busy?: { id: number; job: Job } }[] = [];
  private readonly queues = new Map<ClientKey, Job[]>();
  private readonly running = new Map<ClientKey, number>();
  /** When each client with work here was last given a worker: among equals, the one waiting longest goes first. */
  private readonly turns = new Map<ClientKey, number>();
  private turn = 0;
  /** The clients present (see {@link PRESENT_MS}), least recently seen first. */
  private readonly seen = new Map<ClientKey, number>();
  private nextId = 0;
  private closed = false;
  private online: Promise<void> | undefined;
  /** True once a worker runs: until then statements run in the calling thread (see {@link pooled}). */
  warm = false;

  constructor(
    private readonly target: PoolTarget,
    readonly size: number,
    private readonly clientOf: () => ClientKey = () => clientOfStatement(),
  ) {}

  /** Runs one statement on a worker, resolving with its rows. */
  run(sql: string, params: SqlValue[]): Promise<unknown[]> {
    if (this.closed) return Promise.reject(new Error('[site-search] The search database is closed.'));
    return new Promise((resolve, reject) => {
      const client = this.clientOf();
      this.seen.delete(client);
      this.seen.set(client, Date.now());
      let queue = this.queues.get(client);
      if (!queue) this.queues.set(client, (queue = []));
      queue.push({ sql, params, client, resolve, reject });
      this.dispatch();
    });
  }

  /**
   * Starts the first worker when none has been started; resolves once one runs. A worker takes tens of milliseconds to
   * start, which a fresh process's first answer (a serverless function's cold start) should not wait for.
   */
  ready(): Promise<void> {
    if (!this.online) {
      const slot = this.workers[0] ?? this.start();
      // A worker that never starts (a runtime without worker threads' eval) leaves the statements in this thread.
      // Kept alive until it runs: a script that awaits this and nothing else must not exit meanwhile.
      slot.worker.ref();
      this.online = new Promise<void>((resolve) => slot.worker.once('online', resolve)).then(() => {
        this.warm = true;
        if (!slot.busy) slot.worker.unref();
      });
    }
    return this.online;
  }

  /** How many statements of `client` run and wait now. @internal (tests) */
  stateOf(client: ClientKey): { running: number; waiting: number } {
    return { running: this.running.get(client) ?? 0, waiting: this.queues.get(client)?.length ?? 0 };
  }

  /** Stops the workers; statements still waiting fail. */
  async close(): Promise<void> {
    this.closed = true;
    const error = new Error('[site-search] The search database was closed while a statement waited.');
    for (const queue of this.queues.values()) for (const job of queue) job.reject(error);
    for (const slot of this.workers) slot.busy?.job.reject(error);
    this.queues.clear();
    this.running.clear();
    this.turns.clear();
    this.seen.clear();
    await Promise.all(this.workers.splice(0).map(({ worker }) => worker.terminate()));
  }

  private dispatch(): void {
    while (this.queues.size > 0) {
      const free = this.workers.find((w) => !w.busy);
      if (!free && this.workers.length >= this.size) return;
      const job = this.nextJob();
      // Every client waiting has its share running: the next statement to finish dispatches again.
      if (!job) return;
      const slot = free ?? this.start();
      const id = ++this.nextId;
      slot.busy = { id, job };
      // A worker keeps the process alive only while it runs something (a script awaiting a search must not exit).
      slot.worker.ref();
      this.running.set(job.client, (this.running.get(job.client) ?? 0) + 1);
      this.turns.set(job.client, ++this.turn);
      slot.worker.postMessage({ id, sql: job.sql, params: job.params });
    }
  }

  /**
   * The next job: from the client with the fewest statements running, among equals the one served least recently; none
   * when every client waiting already runs its share.
   */
  private nextJob(): Job | undefined {
    const share = this.share();
    let best: ClientKey;
    let found = false;
    let claim = [Infinity, Infinity];
    for (const client of this.queues.keys()) {
      const mine = [this.running.get(client) ?? 0, this.turns.get(client) ?? 0];
      if (mine[0]! >= share) continue;
      if (mine[0]! < claim[0]! || (mine[0] === claim[0] && mine[1]! < claim[1]!)) (best = client), (claim = mine), (found = true);
    }
    if (!found) return undefined;
    const queue = this.queues.get(best)!;
    const job = queue.shift()!;
    if (queue.length === 0) this.queues.delete(best);
    return job;
  }

  /**
   * How many statements one client may run at once: every worker while it is the only client present, else an equal
   * share (at least one). A client alone (a site behind a proxy on the same machine is one address) keeps the whole pool;
   * two connections of one address beside a reader hold one worker, not every core.
   */
  private share(): number {
    const now = Date.now();
    for (const [client, at] of this.seen) {
      if (now - at <= PRESENT_MS) break;
      this.seen.delete(client);
    }
    return this.seen.size <= 1 ? this.size : Math.max(1, Math.floor(this.size / this.seen.size));
  }

  private finished(client: ClientKey): void {
    const left = (this.running.get(client) ?? 1) - 1;
    if (left > 0) return void this.running.set(client, left);
    this.running.delete(client);
    // Nothing of this client's is left here: it is forgotten (its address is held no longer than its statements).
    if (!this.queues.has(client)) this.turns.delete(client);
  }

  private start() {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: this.target });
    const slot: (typeof this.workers)[number] = { worker };
    worker.on('message', (reply: Reply) => {
      const busy = slot.busy;
      if (!busy || busy.id !== reply.id) return;
      slot.busy = undefined;
      slot.worker.unref();
      this.finished(busy.job.client);
      if ('error' in reply) busy.job.reject(Object.assign(new Error(reply.error.message), reply.error));
      else busy.job.resolve(reply.rows);
      this.dispatch();
    });
    const lost = (e: Error) => {
      // The statement it was running fails with the error (one that cannot open the file: the error SQLite gave); the
      // next job starts a new worker.
      const i = this.workers.indexOf(slot);
      if (i < 0) return;
      this.workers.splice(i, 1);
      const busy = slot.busy;
      slot.busy = undefined;
      if (busy) this.finished(busy.job.client);
      busy?.job.reject(e);
      this.dispatch();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => {
      if (!this.closed) lost(new Error(`[site-search] A search worker stopped (exit code ${code}).`));
    });
    worker.unref();
    this.workers.push(slot);
    return slot;
  }
}

/**
 * `db` with its reads run by `pool`: `prepare(sql).bind(…).all()` goes to a worker, so a slow search never holds the
 * event loop. `run`, `batch`, `exec` and `transaction` stay with `db`'s own connection in this thread: that is where
 * writes are made (on a file opened to write, with `threads` asked for), and where a read-only server makes none.
 */
export function pooled(db: SqliteDatabase, pool: StatementPool): SqliteDatabase & { readonly pool: StatementPool } {
  class PoolStatement implements SearchStatement {
    constructor(
      readonly sql: string,
      readonly params: SqlValue[] = [],
    ) {}
    bind(...values: SqlValue[]): PoolStatement {
      return new PoolStatement(this.sql, values.map((value) => value ?? null));
    }
    async all<Row>(): Promise<{ results: Row[] }> {
      if (pool.warm) return { results: (await pool.run(this.sql, this.params)) as Row[] };
      // Until a worker runs, here: a fresh process answers its first search without waiting for a thread to start.
      void pool.ready();
      return this.here().all<Row>();
    }
    run(): Promise<unknown> {
      return db.prepare(this.sql).bind(...this.params).run();
    }
    /** The same statement on `db`'s own connection, for `batch`. */
    here(): SearchStatement {
      return db.prepare(this.sql).bind(...this.params);
    }
  }
  return {
    ...db,
    pool,
    prepare: (sql) => new PoolStatement(sql),
    batch: (statements) => db.batch(statements.map((s) => (s instanceof PoolStatement ? s.here() : s))),
    close: () => {
      void pool.close();
      db.close();
    },
  };
}
