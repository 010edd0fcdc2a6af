/**
 * Assistants' searches counted apart from readers' in workerd (Miniflare) with a real D1 binding (issue 46, item 5):
 * the official MCP client searches through the Worker's /mcp, a reader through its endpoint, the counts are written
 * from `ctx.waitUntil` into D1, and the report read back from D1 shows them apart. The analytics table starts as an
 * older site-search wrote it, so the rebuild that adds the source column runs on D1 too.
 */
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import type { SearchDatabase } from '../../src/index.js';
import { readStats } from '../../src/analytics/stats.js';
import { buildIndex, writeIndex } from '../../src/indexer/index.js';
import { bundleTestWorker } from '../helpers/worker-bundle.js';
import { connect, sampleOptions } from '../mcp/helpers.js';

let mf: Miniflare;
let db: SearchDatabase;
let client: Client;
let base: URL;
const day = new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  mf = new Miniflare({
    modules: true,
    script: await bundleTestWorker('mcp-analytics-entry.ts'),
    compatibilityDate: '2026-07-01',
    d1Databases: { SEARCH_DB: 'worker-mcp-analytics-db' },
  });
  base = await mf.ready;
  db = (await mf.getD1Database('SEARCH_DB')) as unknown as SearchDatabase;
  const config = sampleOptions();
  await writeIndex(db, config, (await buildIndex(config)).documents);
  // The queries table as site-search wrote it before sources were counted apart, with a day of readers' searches.
  await db
    .prepare(
      'CREATE TABLE site_search_queries (day TEXT NOT NULL, site TEXT NOT NULL, type TEXT NOT NULL, query TEXT NOT NULL, searches INTEGER NOT NULL, zero INTEGER NOT NULL, results INTEGER NOT NULL, match TEXT NOT NULL, suggestion TEXT NOT NULL, PRIMARY KEY (day, site, query, type)) WITHOUT ROWID',
    )
    .run();
  await db.prepare(`INSERT INTO site_search_queries VALUES ('${day}', '', 'en', 'actions', 5, 0, 3, 'all', '')`).run();
  client = await connect(new URL('/mcp', base).href);
}, 120_000);

afterAll(async () => {
  await client?.close();
  await mf?.dispose();
});

describe('assistants\' searches in a Worker with D1', () => {
  it('are counted into D1 apart from readers\', the older table rebuilt with its rows kept as readers\'', async () => {
    for (const query of ['content collections', 'content collections', 'actions']) {
      expect((await client.callTool({ name: 'search', arguments: { query, type: 'en' } })).isError).toBeFalsy();
    }
    expect((await fetch(new URL('/api/search?q=content%20collections&type=en', base))).status).toBe(200);

    // Counts are written in ctx.waitUntil, after the answers: poll (bounded) until all four are in.
    let report = await readStats(db).catch(() => undefined);
    for (let i = 0; i < 100 && (report?.searches ?? 0) + (report?.assistants.searches ?? 0) < 5 + 4; i++) {
      await new Promise((r) => setTimeout(r, 50));
      report = await readStats(db).catch(() => undefined);
    }
    expect(report).toMatchObject({
      searches: 6,
      topQueries: [
        { query: 'actions', searches: 5 },
        { query: 'content collections', searches: 1 },
      ],
      assistants: {
        searches: 3,
        zeroResults: 0,
        topQueries: [
          { query: 'content collections', searches: 2 },
          { query: 'actions', searches: 1 },
        ],
      },
    });
    const { results } = await db.prepare('SELECT query, source, searches FROM site_search_queries ORDER BY query, source').all();
    expect(results).toEqual([
      { query: 'actions', source: 'endpoint', searches: 5 },
      { query: 'actions', source: 'mcp', searches: 1 },
      { query: 'content collections', source: 'endpoint', searches: 1 },
      { query: 'content collections', source: 'mcp', searches: 2 },
    ]);
  });
});
