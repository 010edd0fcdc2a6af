/**
 * The daily cap with two sources (readers' `endpoint`, assistants' `mcp`), on node:sqlite, better-sqlite3 and D1
 * (Miniflare): a query asked by both is one query of the cap in two rows, eviction moves every row of the evicted
 * query to "other" keeping each row's source, and a click counts only against readers' searches.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchDatabase } from '../../src/index.js';
import type { SearchRow } from '../../src/analytics/aggregate.js';
import { QUERIES_TABLE, CLICKS_TABLE, SqlAnalyticsStore } from '../../src/analytics/sql-store.js';
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

  it('counts a query asked by both once, evicts all its rows to "other" by source, and clicks only against readers\' searches', async () => {
    // A new store per write, as separate processes: each sees the table as the last write left it.
    const write = (searches: SearchRow[], clicks: { query: string; clicks: number }[] = []) =>
      new SqlAnalyticsStore(db, { cap: 2, retentionDays: 90 }).write({ searches, clicks: clicks.map((c) => ({ day, site: '', url: '/a/', rank: 1, ...c })) }, day);

    await write([row('alpha', 'endpoint', 1), row('alpha', 'mcp', 2), row('beta', 'endpoint', 1)]);
    // Two distinct queries in three rows: the cap of 2 is not passed, nothing is "other".
    expect(await stored()).toEqual([
      ['alpha', 'endpoint', 1],
      ['alpha', 'mcp', 2],
      ['beta', 'endpoint', 1],
    ]);
    // Three reports for alpha, searched once by readers: one counts (the assistants' two searches open nothing).
    await write([], [{ query: 'alpha', clicks: 3 }]);
    expect((await db.prepare(`SELECT sum(clicks) AS n FROM ${CLICKS_TABLE}`).all<{ n: number }>()).results[0]!.n).toBe(1);

    // gamma (3 searches) takes the place of the least searched, beta (1); then delta (an assistant's, 5) that of alpha
    // (3 over its two rows), whose rows go to "other" each under its own source.
    await write([row('gamma', 'endpoint', 3)]);
    await write([row('delta', 'mcp', 5)]);
    expect(await stored()).toEqual([
      ['', 'endpoint', 2],
      ['', 'mcp', 2],
      ['delta', 'mcp', 5],
      ['gamma', 'endpoint', 3],
    ]);
  });
});
