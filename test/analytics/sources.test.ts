/**
 * The daily cap with two sources (readers' `endpoint`, assistants' `mcp`), on node:sqlite, better-sqlite3 and D1
 * (Miniflare): each source has a cap of its own (issue 54, item 6: before, one cap counted both, and 2,200 junk
 * searches through MCP evicted every readers' query of the day), eviction moves a query's rows of its source to
 * "other", and a click counts only against readers' searches.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchDatabase } from '../../src/index.js';
import type { SearchRow } from '../../src/analytics/aggregate.js';
import { CANDIDATES_TABLE, QUERIES_TABLE, CLICKS_TABLE, SqlAnalyticsStore } from '../../src/analytics/sql-store.js';
import { DRIVERS, type TestDatabase } from '../helpers/databases.js';

const day = '2026-11-27';
const row = (query: string, source: SearchRow['source'], searches: number): SearchRow => ({
  day, site: '', source, type: '', query, searches, zero: 0, results: 3, match: 'all', suggestion: '',
});

describe.each(Object.entries(DRIVERS))('the daily cap with sources: %s', (_name, open) => {
  let handle: TestDatabase;
  let db: SearchDatabase;
  beforeAll(async () => {
    handle = await open();
    db = handle.db;
  }, 60_000);
  afterAll(() => handle.close());

  const stored = async () =>
    (await db.prepare(`SELECT query, source, searches FROM ${QUERIES_TABLE} ORDER BY query, source`).all<{ query: string; source: string; searches: number }>()).results.map(
      (r) => [r.query, r.source, Number(r.searches)],
    );

  it('caps each source apart: assistants\' queries take only assistants\' places; clicks count against readers\' searches', async () => {
    // A new store per write, as separate processes: each sees the table as the last write left it.
    const write = (searches: SearchRow[], clicks: { query: string; clicks: number }[] = []) =>
      new SqlAnalyticsStore(db, { cap: 2, retentionDays: 90 }).write({ searches, clicks: clicks.map((c) => ({ day, site: '', url: '/a/', rank: 1, ...c })) }, day);

    await write([row('alpha', 'endpoint', 1), row('alpha', 'mcp', 2), row('beta', 'endpoint', 1)]);
    // Two readers' queries and one assistants': within each cap of 2, nothing is "other".
    expect(await stored()).toEqual([
      ['alpha', 'endpoint', 1],
      ['alpha', 'mcp', 2],
      ['beta', 'endpoint', 1],
    ]);
    // Three reports for alpha, searched once by readers: one counts (the assistants' two searches open nothing).
    await write([], [{ query: 'alpha', clicks: 3 }]);
    expect((await db.prepare(`SELECT sum(clicks) AS n FROM ${CLICKS_TABLE}`).all<{ n: number }>()).results[0]!.n).toBe(1);

    // A flood of assistants' queries, each searched more than any reader's: they fill the assistants' places only.
    for (let i = 0; i < 5; i++) await write([row(`junk${i}`, 'mcp', 10 + i)]);
    // gamma (3 searches) takes the place of a readers' query searched once (alpha, first by text), whose clicks go too.
    await write([row('gamma', 'endpoint', 3)]);
    expect(await stored()).toEqual([
      ['', 'endpoint', 1],
      ['', 'mcp', 2 + 10 + 11 + 12],
      ['beta', 'endpoint', 1],
      ['gamma', 'endpoint', 3],
      ['junk3', 'mcp', 13],
      ['junk4', 'mcp', 14],
    ]);
    expect((await db.prepare(`SELECT count(*) AS n FROM ${CLICKS_TABLE}`).all<{ n: number }>()).results[0]!.n).toBe(0);
  });

  it('rebuilds a candidates table written before each source had its cap, keeping its rows as readers\'', async () => {
    for (const table of [QUERIES_TABLE, CLICKS_TABLE, CANDIDATES_TABLE, 'site_search_evicting']) await db.prepare(`DROP TABLE IF EXISTS ${table}`).run();
    await db.prepare(`CREATE TABLE ${CANDIDATES_TABLE} (day TEXT NOT NULL, site TEXT NOT NULL, query TEXT NOT NULL, searches INTEGER NOT NULL, error INTEGER NOT NULL, PRIMARY KEY (day, site, query)) WITHOUT ROWID`).run();
    await db.prepare('CREATE TABLE site_search_evicting (day TEXT NOT NULL, site TEXT NOT NULL, query TEXT NOT NULL, PRIMARY KEY (day, site, query)) WITHOUT ROWID').run();
    await db.prepare(`INSERT INTO ${CANDIDATES_TABLE} VALUES ('${day}', '', 'kept', 4, 1)`).run();
    await new SqlAnalyticsStore(db, { cap: 2, retentionDays: 90 }).write({ searches: [row('a', 'endpoint', 1), row('b', 'endpoint', 1), row('c', 'mcp', 1)], clicks: [] }, day);
    const { results } = await db.prepare(`SELECT source, query, searches, error FROM ${CANDIDATES_TABLE}`).all();
    expect(results).toEqual([{ source: 'endpoint', query: 'kept', searches: 4, error: 1 }]);
    expect(await stored()).toEqual([
      ['a', 'endpoint', 1],
      ['b', 'endpoint', 1],
      ['c', 'mcp', 1],
    ]);
  });
});
