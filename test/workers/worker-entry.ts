/**
 * The Worker under test: `createWorker` exactly as a user exports it, with one addition for the test: every D1
 * statement the search runs is counted (on the real binding), and `/__db-calls` reports the count.
 */
import { createWorker } from '../../adapters/workers.js';
import type { SearchDatabase, SearchStatement } from '../../src/index.js';

const worker = createWorker({
  database: 'worker-test',
  sources: [
    { dir: 'docs', type: 'doc', url: '/docs/:slug' },
    { dir: 'blog', type: 'post', url: '/blog/:slug' },
  ],
});

let calls = 0;
const count = (statement: SearchStatement): SearchStatement => ({
  bind: (...values) => count(statement.bind(...values)),
  all: () => (calls++, statement.all()),
  run: () => (calls++, statement.run()),
});

export default {
  async fetch(request: Request, env: { SEARCH_DB?: SearchDatabase }, ctx: ExecutionContext): Promise<Response> {
    if (new URL(request.url).pathname === '/__db-calls') return Response.json({ calls });
    const db = env.SEARCH_DB;
    const counted = db && { prepare: (sql: string) => count(db.prepare(sql)) };
    return worker.fetch(request, { ...env, SEARCH_DB: counted }, ctx);
  },
};

interface ExecutionContext {
  waitUntil(promise: Promise<unknown>): void;
}
