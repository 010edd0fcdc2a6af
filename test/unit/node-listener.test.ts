import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openSqlite, toNodeListener } from '../../adapters/node.js';
import { createSearchHandler } from '../../src/index.js';
import { seed, siteDocs } from '../helpers/documents.js';

let server: Server;
let base: string;
const db = openSqlite(':memory:');

beforeAll(async () => {
  await seed(db, siteDocs());
  const handler = createSearchHandler({ database: 'd', sources: [{ dir: 'docs', type: 'doc', url: '/docs/:slug' }] }, { db });
  server = createServer(toNodeListener(handler));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.close();
  db.close();
});

it('serves the handler over node:http with status, headers and body intact', async () => {
  const res = await fetch(`${base}/api/search?q=deploy`);
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('public, max-age=300');
  const body = await res.json();
  expect(body.results[0].url).toBe(`${base}/docs/deploy/cloudflare/`);
  const bad = await fetch(`${base}/api/search?q=deploy&limit=x`);
  expect(bad.status).toBe(400);
  expect(await bad.json()).toEqual({ error: 'Invalid limit' });
});

it('builds https result URLs behind a TLS-terminating proxy (X-Forwarded-Proto)', async () => {
  const res = await fetch(`${base}/api/search?q=deploy`, { headers: { 'X-Forwarded-Proto': 'https' } });
  expect((await res.json()).results[0].url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/docs\/deploy\/cloudflare\/$/);
});
