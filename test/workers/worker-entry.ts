/**
 * The Worker under test: `createWorker` exactly as a user exports it, with one addition for the test: every D1
 * statement the search runs is counted (on the real binding), and `/__db-calls` reports the count.
 */
import { createWorker } from '../../adapters/workers.js';
import type { SearchDatabase } from '../../src/index.js';
import { observe } from '../helpers/observe.js';

const worker = createWorker({
  database: 'worker-test',
  sources: [
    { dir: 'docs', type: 'doc', url: '/docs/:slug' },
    { dir: 'blog', type: 'post', url: '/blog/:slug' },
  ],
});

let calls = 0;

export default {
  async fetch(request: Request, env: { SEARCH_DB?: SearchDatabase }, ctx: ExecutionContext): Promise<Response> {
    if (new URL(request.url).pathname === '/__db-calls') return Response.json({ calls });
    const db = env.SEARCH_DB;
    const counted = db && observe(db, () => calls++);
    return worker.fetch(request, { ...env, SEARCH_DB: counted }, ctx);
  },
};

interface ExecutionContext {
  waitUntil(promise: Promise<unknown>): void;
}
