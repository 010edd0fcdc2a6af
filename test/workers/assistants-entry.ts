/**
 * A Worker as a user exports it with the MCP server and llms.txt (docs/mcp.md), for the astro-docs sample's sources,
 * with what the cost tests read beside it (issue 54, items 4 and 4b):
 * - every statement sent to D1 is counted with the rows D1 reports it read (`meta.rows_read`, what D1 bills), through
 *   the wrappers of test/helpers/observe.ts, which pass the binding through whole; and each statement prepared on the
 *   binding itself rather than on a session (`withSession`, the read replicas) is counted apart: `/__db-calls`;
 * - a request with `X-Test-Cache: failing` goes to the same Worker built with a cache whose every call throws, the one
 *   fault of the Cache API this test cannot cause in workerd (removing Miniflare's or `wrangler dev`'s cache folder
 *   makes the Cache API miss, not throw, in the versions this repository pins).
 */
import { createWorker } from '../../adapters/workers.js';
import { createMcpHandler } from '../../src/mcp/index.js';
import { createLlmsHandler } from '../../src/llms/index.js';
import type { SearchDatabase, SearchCache } from '../../src/index.js';
import { countRowsRead, observe } from '../helpers/observe.js';

const sources = ['de', 'en', 'fr', 'ja', 'ko', 'zh-cn'].map((lang) => ({ dir: lang, type: lang, url: `/${lang}/:slug` }));
const options = { database: 'bench', sources, mcp: { name: 'Astro docs' } };
const worker = createWorker(options, { mcp: createMcpHandler, llms: createLlmsHandler });
const lost = async (): Promise<never> => {
  throw new Error('Network connection lost.');
};
const failingCache: SearchCache = { match: lost, put: lost };
const failing = createWorker(options, { mcp: createMcpHandler, llms: createLlmsHandler, cache: failingCache });

const counts = { statements: 0, rowsRead: 0, direct: 0, sql: [] as string[] };

/** The binding with each statement prepared on it (not on a session it opens) counted. */
function countDirect(db: SearchDatabase): SearchDatabase {
  return new Proxy(db, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== 'function') return value;
      if (key === 'prepare') return (sql: string) => (counts.direct++, target.prepare(sql));
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
}

export default {
  async fetch(request: Request, env: { SEARCH_DB: SearchDatabase }, ctx: { waitUntil(p: Promise<unknown>): void }): Promise<Response> {
    const path = new URL(request.url).pathname;
    if (path === '/__db-calls') return Response.json(counts);
    if (path === '/__reset') return Response.json(Object.assign(counts, { statements: 0, rowsRead: 0, direct: 0, sql: [] }));
    const observed = observe(countDirect(env.SEARCH_DB), (sql) => (counts.statements++, counts.sql.push(sql)));
    const db = countRowsRead(observed, (n) => (counts.rowsRead += n));
    const target = request.headers.get('x-test-cache') === 'failing' ? failing : worker;
    return target.fetch(request, { ...env, SEARCH_DB: db }, ctx as never);
  },
};
