/**
 * Analytics an outsider cannot wipe or plant (issue 44, item 4), on node:sqlite, better-sqlite3 and D1 in Miniflare,
 * through the real handler: a flood of one-off queries does not evict a query readers repeat, a click report counts
 * only for a page of the index and at most once per search, and personal data and secrets are masked.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { endpointAnalytics, type EndpointAnalytics } from '../../src/analytics/endpoint.js';
import { readStats } from '../../src/analytics/stats.js';
import { CANDIDATES_TABLE, CLICKS_TABLE, QUERIES_TABLE } from '../../src/analytics/sql-store.js';
import { createHandler, missingBindingMessage } from '../../src/http/handler.js';
import { resolveConfig, type SearchDatabase, type SearchOptions } from '../../src/index.js';
import { buildIndex, writeIndex } from '../../src/indexer/index.js';
import { DRIVERS, type TestDatabase } from '../helpers/databases.js';
import { makeProject } from '../helpers/project.js';

const ORIGIN = 'https://example.com';
const base: SearchOptions = { database: 'outsider', sources: [{ dir: 'docs', type: 'doc', url: '/docs/:slug/' }], origin: ORIGIN };
const project = makeProject({
  'docs/deploy/cloudflare.md': '---\ntitle: Deploy to Cloudflare\n---\nRun wrangler deploy from the project.\n\n## Install\n\nInstall wrangler, then deploy.\n',
  'docs/collections.md': '---\ntitle: Content collections\n---\nCollections group Markdown files; deploy them with the site.\n',
});
afterAll(() => project.cleanup());

/** A handler whose analytics (and so its recorder: one process) the test holds. */
function handlerOn(db: SearchDatabase, flushSeconds: number, dailyQueryCap?: number) {
  let analytics: EndpointAnalytics | undefined;
  const handler = createHandler({ ...base, analytics: { flushSeconds, ...(dailyQueryCap ? { dailyQueryCap } : {}) } }, { db, cache: false }, { fallbackCache: () => undefined, missingBinding: missingBindingMessage, analytics: (config) => (analytics = endpointAnalytics(config)) });
  const pending: Promise<unknown>[] = [];
  const ctx = { waitUntil: (p: Promise<unknown>) => void pending.push(p) };
  return {
    search: async (q: string) => {
      const response = await handler(new Request(`${ORIGIN}/api/search?q=${encodeURIComponent(q)}`), {}, ctx);
      expect(response.status).toBe(200);
    },
    click: (body: unknown) => handler(new Request(`${ORIGIN}/api/search`, { method: 'POST', body: JSON.stringify(body) }), {}, ctx),
    settled: async () => {
      while (pending.length) await pending.shift();
    },
    flush: () => analytics!.recorder.flush(db),
  };
}

describe.each(Object.entries(DRIVERS))('analytics against an outsider: %s', (_name, open) => {
  let handle: TestDatabase;
  let db: SearchDatabase;

  beforeAll(async () => {
    handle = await open();
    db = handle.db;
    const config = resolveConfig(base);
    await writeIndex(db, config, (await buildIndex(config, { cwd: project.dir })).documents);
  }, 60_000);
  afterAll(() => handle.close());
  afterEach(async () => {
    for (const table of [QUERIES_TABLE, CLICKS_TABLE, CANDIDATES_TABLE]) await db.prepare(`DROP TABLE IF EXISTS ${table}`).run();
  });

  it('1,200 one-off junk searches, then more between a real query\'s: the query searched 20 times is reported with 20', async () => {
    // The flood from one process (flushed every 500 rows), the reader from another that writes each search at once.
    const flood = handlerOn(db, 3600);
    const reader = handlerOn(db, 0);
    let junk = 0;
    for (; junk < 1200; junk++) await flood.search(`zq${junk}x junk`);
    for (let i = 0; i < 20; i++) {
      await reader.search('wrangler deploy');
      await reader.settled();
      for (let j = 0; j < 10; j++, junk++) await flood.search(`zq${junk}x junk`);
    }
    await flood.flush();
    await flood.settled();
    const stats = await readStats(db);
    expect(stats.topQueries[0]).toMatchObject({ query: 'wrangler deploy', searches: 20 });
    // Every search is counted: the queries not kept are in "other", and the day holds at most the cap.
    expect(stats.searches).toBe(junk + 20);
    const { results } = await db.prepare(`SELECT count(DISTINCT query) AS n FROM ${QUERIES_TABLE} WHERE query <> ''`).all<{ n: number }>();
    expect(Number(results[0]!.n)).toBeLessThanOrEqual(1000);
  }, 180_000);

  it('junk searched 2 or 3 times each, one search a write, more queries than the cap: a query then searched 20 times between more junk is reported', async () => {
    // The cap at 100 (the rule does not depend on it) so that every search can be its own write, as on Workers.
    const cap = 100;
    const attacker = handlerOn(db, 0, cap);
    let asked = 0;
    const search = async (q: string) => {
      await attacker.search(q);
      await attacker.settled();
      asked++;
    };
    const times = (i: number) => 2 + (i % 2);
    // 110 junk queries, in rounds, so that each one's searches are spread over writes.
    for (let round = 0; round < 3; round++) for (let i = 0; i < 110; i++) if (round < times(i)) await search(`zq${i}x junk`);
    for (let i = 0; i < 20; i++) {
      await search('wrangler deploy');
      // Three new junk queries between the real query's searches, each searched twice, one write a search.
      for (let round = 0; round < 2; round++) for (let j = 0; j < 3; j++) await search(`zr${i}y${j} junk`);
    }
    const stats = await readStats(db);
    // A query enters once the searches counted for it as a candidate reach the weight of the least searched stored
    // query (junk: at most 3, so by its 4th search), and from then on no junk query weighs as much: the report shows
    // the searches since it entered, at least 20 - 4 (docs/analytics.md, "Daily cap").
    const real = stats.topQueries.find((q) => q.query === 'wrangler deploy');
    console.log(`[repeat-attack] reported ${real?.searches}`);
    expect(real?.searches).toBeGreaterThanOrEqual(16);
    expect(stats.topQueries[0]!.query).toBe('wrangler deploy');
    expect(stats.searches).toBe(asked);
    const { results } = await db.prepare(`SELECT count(DISTINCT query) AS n FROM ${QUERIES_TABLE} WHERE query <> ''`).all<{ n: number }>();
    expect(Number(results[0]!.n)).toBeLessThanOrEqual(cap);
  }, 180_000);

  it('a click report counts only for a page of the index, at most once per search, with a heading anchor or none', async () => {
    const reader = handlerOn(db, 0);
    await reader.search('wrangler deploy');
    await reader.settled();
    const opened = { q: 'wrangler deploy', url: `${ORIGIN}/docs/deploy/cloudflare/#install`, rank: 1 };
    for (let i = 0; i < 300; i++) expect((await reader.click(opened)).status).toBe(204);
    for (const url of [`${ORIGIN}/totally/not/indexed/`, `${ORIGIN}/${'a'.repeat(1906)}/`, `${ORIGIN}/phishing-login/`]) {
      const response = await reader.click({ ...opened, url });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: expect.stringMatching(/page of the search index/) });
    }
    // A query no one searched: accepted as a report, never counted.
    expect((await reader.click({ ...opened, q: 'free crypto at evil example' })).status).toBe(204);
    await reader.search('collections');
    await reader.settled();
    await reader.click({ q: 'collections', url: `${ORIGIN}/docs/collections/#access_token=eyJhbGciOi.secret`, rank: 1 });
    await reader.settled();

    const stored = (await db.prepare(`SELECT query, url, rank, clicks FROM ${CLICKS_TABLE} ORDER BY query`).all()).results.map((r) => ({ ...r, rank: Number(r.rank), clicks: Number(r.clicks) }));
    expect(stored).toEqual([
      { query: 'collections', url: '/docs/collections/', rank: 1, clicks: 1 },
      { query: 'wrangler deploy', url: '/docs/deploy/cloudflare/#install', rank: 1, clicks: 1 },
    ]);
    const stats = await readStats(db);
    expect(stats.clicks).toBeLessThanOrEqual(stats.searches);
    expect(stats.clickThroughRate).toBeLessThanOrEqual(1);
  });

  it('masks obfuscated e-mails, digits of every script, tokens, keys, JWTs and passwords, in the query and its suggestion', async () => {
    const reader = handlerOn(db, 0);
    const typed = [
      'admin@localhost',
      'user%40example.com',
      'john.doe at example dot com',
      'call ０１２３４５６７８９',
      'order ٠١٢٣٤٥٦٧٨',
      'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
      'AKIAIOSFODNN7EXAMPLE',
      'token=abc123def456ghi',
      'my password is hunter2',
      'ghp_16C7e42F292c6912E7710c838347Ae178B4a',
      'sk_live_4eC39HqLyjWDarjtT1zdp7dc',
      'instal my password is hunter2',
    ];
    for (const q of typed) await reader.search(q);
    await reader.settled();
    const everything = JSON.stringify((await db.prepare(`SELECT * FROM ${QUERIES_TABLE}`).all()).results);
    for (const secret of ['admin', 'localhost', '%40', 'john.doe', 'example', '０１２', '٠١٢', 'eyJ', 'akiaiosfodnn7', 'abc123', 'hunter2', 'ghp_', '16c7e42f', 'sk_live', '4ec39hq']) {
      expect(everything.toLowerCase()).not.toContain(secret.toLowerCase());
    }
    expect(everything).toContain('[email]');
    expect(everything).toContain('[number]');
    expect(everything).toContain('[secret]');
  });
});
