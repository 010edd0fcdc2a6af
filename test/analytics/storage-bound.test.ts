/**
 * Analytics storage is bounded in bytes per day (docs/analytics.md, "Storage per day"): a day filled at its worst (every
 * query at `maxQueryLength` characters of 4 bytes, a suggestion as long, a row per type and for all types, three click
 * rows per query on 200-byte URLs), then flooded with five times as many new queries searched more often (so each
 * evicts one, and the evicted fill the day's candidates), stays within the stated bound, on a real node:sqlite file.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openAnalytics } from '../../src/analytics/open.js';
import { SqlAnalyticsStore } from '../../src/analytics/sql-store.js';
import type { ClickRow, SearchRow } from '../../src/analytics/aggregate.js';
import { makeProject } from '../helpers/project.js';

/**
 * docs/analytics.md, "Storage per day": query rows × (8 × maxQueryLength + 40) bytes (query and suggestion at 4 bytes a
 * character) plus click rows × (4 × maxQueryLength + longest URL + 40) plus candidate rows × (4 × maxQueryLength + 40),
 * and pages at least half full: twice that. Here the defaults (1,000 queries, 100 characters, as many candidates), one
 * type (two rows a query, and "other" twice) and 200-byte URLs.
 */
const STATED_BYTES_PER_DAY = 2 * (2002 * (8 * 100 + 40) + 3 * 1000 * (4 * 100 + 200 + 40) + 1000 * (4 * 100 + 40));

const project = makeProject({});
afterAll(() => project.cleanup());

it('a day at its worst, then flooded with evicting queries, stays within the stated bytes', async () => {
  const options = { database: 'bytes', sources: [{ dir: 'docs', type: 'doc', url: '/docs/:slug/' }], analytics: { sqlitePath: 'a.db' } };
  const db = openAnalytics(options, { cwd: project.dir });
  const store = new SqlAnalyticsStore(db, { cap: 1000, retentionDays: 90 });
  const day = '2026-11-28';
  // 100 code points, nearly all of 4 bytes.
  const wide = (i: number, salt: string) => `${salt}${i}` + '\u{1D538}'.repeat(100 - `${salt}${i}`.length);
  const size = () => {
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    return statSync(join(project.dir, 'a.db')).size;
  };
  const empty = size();
  let peak = 0;
  for (const [round, searches] of [['a', 3], ['b', 4], ['c', 5], ['d', 6], ['e', 7], ['f', 8]] as const) {
    for (let part = 0; part < 2; part++) {
      const rows: SearchRow[] = [];
      const clicks: ClickRow[] = [];
      for (let i = part * 500; i < (part + 1) * 500; i++) {
        const query = wide(i, round);
        for (const type of ['', 'doc']) rows.push({ day, site: '', source: 'endpoint', type, query, searches, zero: 0, results: 25, match: 'typo', suggestion: query });
        for (let rank = 1; rank <= 3; rank++) clicks.push({ day, site: '', query, url: `/${'u'.repeat(180)}/${i}/#section-${rank}`, rank, clicks: 1 });
      }
      await store.write({ searches: rows, clicks }, day);
      await store.write({ searches: [], clicks }, day);
    }
    peak = Math.max(peak, size() - empty);
  }
  const { results } = await db.prepare('SELECT (SELECT count(*) FROM site_search_queries) AS q, (SELECT count(*) FROM site_search_clicks) AS c, (SELECT count(*) FROM site_search_candidates) AS p').all<{ q: number; c: number }>();
  // Full: 1,000 queries × 2 types + "other" × 2, three click rows per query, and 1,000 candidates (the evicted).
  expect(results[0]).toEqual({ q: 2002, c: 3000, p: 1000 });
  console.log(`[storage-bound] peak ${peak} bytes for one worst-case day`);
  expect(peak).toBeLessThanOrEqual(STATED_BYTES_PER_DAY);
  db.close();
}, 120_000);
