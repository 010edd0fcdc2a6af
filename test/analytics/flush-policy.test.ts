/**
 * The flush policy on D1 in Miniflare, through the real handler: an isolate's first search is written at once (so
 * `stats` shows a new setup at its first search, issue 55, item 6), then counts wait in memory until the oldest is
 * `flushSeconds` old (default 300) and are written in one batch, so a quiet isolate (a search every 10 s) does not
 * write once per search. The clock is the one thing injected (the recorder's `now`), so that five minutes of
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

it('a search every 10 s: the first written at once, then nothing for 5 minutes, then one batch holding every count exactly', async () => {
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

  const stored = async () => (await d1.prepare('SELECT query, searches FROM site_search_queries ORDER BY query').all<{ query: string; searches: number }>()).results;
  // The isolate's first search: written at once, in its request's waitUntil, one row.
  await search(0);
  now += 10_000;
  expect(counted.batches).toBe(1);
  expect(await stored()).toEqual([{ query: 'deploy', searches: 1 }]);
  expect(counted.written).toBe(1);

  // 30 more searches, 10 s apart: the oldest waiting count is 290 s old at the last one.
  for (let i = 1; i < 31; i++, now += 10_000) await search(i);
  expect(counted.batches).toBe(1);

  // The 32nd, 300 s after the second: the whole window goes in one batch.
  await search(31);
  expect(counted.batches).toBe(2);
  expect(await stored()).toEqual([...asked].sort(([a], [b]) => a.localeCompare(b)).map(([query, searches]) => ({ query, searches })));
  expect((await stored()).reduce((n, r) => n + r.searches, 0)).toBe(32);
  // One row per distinct query: three queries, three rows written (the day's retention DELETE finds nothing to delete).
  expect(counted.written).toBe(1 + 3);
});
