/**
 * The Worker under test: `createWorker` exactly as a user exports it, with additions for the tests:
 * - every D1 statement the search runs is counted, with the rows D1 reports it read (`meta.rows_read`, what D1 bills),
 *   through wrappers that pass the binding through whole (test/helpers/observe.ts), so the search takes the plan it
 *   takes on a bare binding; `/__db-calls` reports both counts;
 * - `/__requests` reports how many requests reached the Worker and how many of those it finished answering;
 * - `/__plans?q=…` runs one search three ways and answers the SQL each ran: on the bare binding, through the counting
 *   wrapper, and through an object with only `prepare` (the shape the wrappers had before issue 48).
 */
import { createWorker } from '../../adapters/workers.js';
import { searchIndex, type SearchDatabase } from '../../src/index.js';
import { countRowsRead, observe } from '../helpers/observe.js';

const options = {
  database: 'worker-test',
  sources: [
    { dir: 'docs', type: 'doc', url: '/docs/:slug' },
    { dir: 'blog', type: 'post', url: '/blog/:slug' },
  ],
};
const worker = createWorker(options);

let calls = 0;
let rowsRead = 0;
const requests = { started: 0, finished: 0 };

export default {
  async fetch(request: Request, env: { SEARCH_DB?: SearchDatabase }, ctx: ExecutionContext): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === '/__db-calls') return Response.json({ calls, rowsRead });
    if (url.pathname === '/__requests') return Response.json(requests);
    const db = env.SEARCH_DB;
    if (url.pathname === '/__plans' && db) return Response.json(await plans(db, url.searchParams.get('q') ?? ''));
    const counted = db && countRowsRead(observe(db, () => calls++), (n) => (rowsRead += n));
    requests.started++;
    const response = await worker.fetch(request, { ...env, SEARCH_DB: counted }, ctx);
    requests.finished++;
    return response;
  },
};

/** The SQL of one search on the bare binding, through the counting wrappers, and through a `prepare`-only object. */
async function plans(db: SearchDatabase, q: string): Promise<Record<'bare' | 'wrapped' | 'prepareOnly', string[]>> {
  const bare = await bareBindingSql(db, () => searchIndex(options, { db, q }));
  const wrapped: string[] = [];
  await searchIndex(options, { db: countRowsRead(observe(db, (sql) => wrapped.push(sql)), () => {}), q });
  const prepareOnly: string[] = [];
  await searchIndex(options, { db: { prepare: (sql) => (prepareOnly.push(sql), db.prepare(sql)) }, q });
  return { bare, wrapped, prepareOnly };
}

/**
 * The SQL prepared while `run` searches the binding itself. Nothing wraps it: the binding object is the one workerd
 * gave, and for the moment of the search its own `prepare` and `withSession` (and the session's `prepare`) are shadowed
 * by own properties that note the SQL and call the real method, then deleted. Whatever a search decides from the
 * binding's members, it decides on the real object.
 */
async function bareBindingSql(db: SearchDatabase, run: () => Promise<unknown>): Promise<string[]> {
  const sql: string[] = [];
  const restore: (() => void)[] = [];
  const shadow = <T extends object>(target: T, key: string, value: (real: (...a: unknown[]) => unknown) => unknown) => {
    const real = (target as Record<string, unknown>)[key];
    if (typeof real !== 'function') return;
    const own = Object.getOwnPropertyDescriptor(target, key);
    Object.defineProperty(target, key, { configurable: true, writable: true, value: value(real.bind(target) as (...a: unknown[]) => unknown) });
    restore.push(() => (own ? Object.defineProperty(target, key, own) : delete (target as Record<string, unknown>)[key]));
  };
  const noting = (target: SearchDatabase) => shadow(target, 'prepare', (prepare) => (text: string) => (sql.push(text), prepare(text)));
  noting(db);
  shadow(db, 'withSession', (open) => (constraint: string) => {
    const session = open(constraint) as SearchDatabase;
    noting(session);
    return session;
  });
  try {
    await run();
  } finally {
    for (const undo of restore.reverse()) undo();
  }
  return sql;
}

interface ExecutionContext {
  waitUntil(promise: Promise<unknown>): void;
}
