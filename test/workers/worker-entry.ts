/**
 * The Worker under test: `createWorker` exactly as a user exports it, with two additions for the tests: every D1
 * statement the search runs is counted (on the real binding), and `/__db-calls` reports the count; and `/__requests`
 * reports how many requests reached the Worker and how many of those it finished answering.
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
const requests = { started: 0, finished: 0 };

export default {
  async fetch(request: Request, env: { SEARCH_DB?: SearchDatabase }, ctx: ExecutionContext): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (pathname === '/__db-calls') return Response.json({ calls });
    if (pathname === '/__requests') return Response.json(requests);
    const db = env.SEARCH_DB;
    const counted = db && observe(db, () => calls++);
    requests.started++;
    const response = await worker.fetch(request, { ...env, SEARCH_DB: counted }, ctx);
    requests.finished++;
    return response;
  },
};

interface ExecutionContext {
  waitUntil(promise: Promise<unknown>): void;
}
