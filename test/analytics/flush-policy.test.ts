/**
 * The flush policy on D1 in Miniflare, through the real handler: counts wait in memory until the oldest is
 * `flushSeconds` old (default 300) and are then written in one batch, so a quiet isolate (a search every 10 s) does
 * not write once per search. The clock is the one thing injected (the recorder's `now`), so that five minutes of
 * traffic take no real time; D1, the handler and the recorder are real.
 */
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { endpointAnalytics } from '../../src/analytics/endpoint.js';
import { ANALYTICS_SCHEMA } from '../../src/analytics/sql-store.js';
import { createHandler, missingBindingMessage } from '../../src/http/handler.js';
import type { SearchDatabase } from '../../src/index.js';
import { seed, siteDocs } from '../helpers/documents.js';
import { countBatches } from '../helpers/observe.js';

let mf: Miniflare;
let d1: SearchDatabase;

beforeAll(async () => {
  mf = new Miniflare({ modules: true, script: 'export default { fetch() { return new Response("") } }', d1Databases: { DB: 'flush-policy' } });
  d1 = (await mf.getD1Database('DB')) as unknown as SearchDatabase;
  await seed(d1, siteDocs());
  // The tables as an earlier flush of the day left them, so the rows counted below are this flush's own.
  for (const create of ANALYTICS_SCHEMA) await d1.prepare(create).run();
});
afterAll(() => mf?.dispose());

it('a search every 10 s writes nothing for 5 minutes, then one batch holding every count exactly', async () => {
  let now = Date.parse('2026-11-26T12:00:00Z');
  const counted = countBatches(d1);
  const options = { database: 'd', sources: [{ dir: 'docs', type: 'doc', url: '/docs/:slug' }], analytics: true };
  const handler = createHandler(options, { db: d1, analytics: counted.db, cache: false }, { fallbackCache: () => undefined, missingBinding: missingBindingMessage, analytics: (config) => endpointAnalytics(config, () => now) });
  const queries = ['deploy', 'wrangler', 'collections', 'deploy'];
  const asked = new Map<string, number>();
  const search = async (i: number) => {
    const q = queries[i % queries.length]!;
    asked.set(q, (asked.get(q) ?? 0) + 1);
    const pending: Promise<unknown>[] = [];
    const answer = await handler(new Request(`https://x.test/api/search?q=${q}`), {}, { waitUntil: (p) => void pending.push(p) });
    expect(answer.status).toBe(200);
    await Promise.all(pending);
  };

  // 30 searches, 10 s apart: the oldest count is 290 s old at the last one.
  for (let i = 0; i < 30; i++, now += 10_000) await search(i);
  expect(counted.batches).toBe(0);

  // The 31st, 300 s after the first: the whole window goes in one batch.
  await search(30);
  expect(counted.batches).toBe(1);
  const stored = (await d1.prepare('SELECT query, searches FROM site_search_queries ORDER BY query').all<{ query: string; searches: number }>()).results;
  expect(stored).toEqual([...asked].sort(([a], [b]) => a.localeCompare(b)).map(([query, searches]) => ({ query, searches })));
  expect(stored.reduce((n, r) => n + r.searches, 0)).toBe(31);
  // One row per distinct query: three queries, three rows written (the day's retention DELETE finds nothing to delete).
  expect(counted.written).toBe(3);
});
