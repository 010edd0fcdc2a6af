/** createWorker's routing, with plain Requests (the workerd run is in test/workers). */
import { expect, it } from 'vitest';
import { openSqlite } from '../../adapters/node.js';
import { createWorker } from '../../adapters/workers.js';
import { recordAnalytics } from '../../src/analytics/index.js';
import { SiteSearchConfigError } from '../../src/index.js';
import { seed, siteDocs } from '../helpers/documents.js';

const sources = [{ dir: 'docs', type: 'doc', url: '/docs/:slug' }];

it('answers a custom apiRoute and nothing else', async () => {
  const db = openSqlite(':memory:');
  await seed(db, siteDocs());
  const worker = createWorker({ database: 'd', sources, apiRoute: '/search.json' });
  const ctx = { waitUntil() {} };
  const hit = await worker.fetch(new Request('https://x.test/search.json?q=deploy'), { SEARCH_DB: db }, ctx);
  expect(hit.status).toBe(200);
  expect(((await hit.json()) as { results: unknown[] }).results.length).toBeGreaterThan(0);
  const slashed = await worker.fetch(new Request('https://x.test/search.json/?q=deploy'), { SEARCH_DB: db }, ctx);
  expect(slashed.status).toBe(200);
  const elsewhere = await worker.fetch(new Request('https://x.test/api/search?q=deploy'), { SEARCH_DB: db }, ctx);
  expect(elsewhere.status).toBe(404);
  expect(await elsewhere.json()).toEqual({ error: 'Not found. The search endpoint is /search.json' });
  db.close();
});

it('refuses apiRoute: false, which would leave it nothing to answer', () => {
  expect(() => createWorker({ database: 'd', sources, apiRoute: false })).toThrow(SiteSearchConfigError);
});

it('with analytics on, needs recordAnalytics from site-search/analytics (so a Worker without analytics ships none of their code), and counts with it', async () => {
  const options = { database: 'd', sources, analytics: { flushSeconds: 0 } };
  expect(() => createWorker(options)).toThrow(
    "analytics: createWorker records them through recordAnalytics: import { recordAnalytics } from 'site-search/analytics' and call createWorker(options, { recordAnalytics })",
  );
  const db = openSqlite(':memory:');
  await seed(db, siteDocs());
  const pending: Promise<unknown>[] = [];
  const worker = createWorker(options, { recordAnalytics });
  const answer = await worker.fetch(new Request('https://x.test/api/search?q=deploy'), { SEARCH_DB: db }, { waitUntil: (p) => void pending.push(p) });
  expect(answer.headers.get('X-Search-Analytics')).toBe('on');
  await Promise.all(pending);
  expect((await db.prepare('SELECT query, searches FROM site_search_queries').all()).results).toEqual([{ query: 'deploy', searches: 1 }]);
  db.close();
});
