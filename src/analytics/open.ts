import { dirname, resolve } from 'node:path';
import { mkdirSync } from 'node:fs';
import { openSqlite, type SqliteDatabase, type SqliteDriver } from '../db/sqlite.js';
import { resolveConfig } from '../options/config.js';
import { ANALYTICS_SCHEMA } from './sql-store.js';
import type { ResolvedConfig, SearchOptions } from '../options/options.js';

/**
 * Opens (creating it and its folder when needed) the local SQLite file analytics are written to: `analytics.sqlitePath`
 * (default `.site-search/analytics.db`), relative to `cwd`. A file of its own, because the index is opened read-only
 * and a push replaces it. Its tables are created when missing. Pass it to the handler as `runtime.analytics` on Node.
 *
 * @example
 * createSearchHandler(options, { db: () => openSqlite('.site-search/search.db'), analytics: () => openAnalytics(options) });
 */
export function openAnalytics(options: SearchOptions | ResolvedConfig, { cwd = process.cwd(), driver }: { cwd?: string; driver?: SqliteDriver } = {}): SqliteDatabase {
  const config = resolveConfig(options);
  const path = resolve(cwd, config.analytics ? config.analytics.sqlitePath : '.site-search/analytics.db');
  mkdirSync(dirname(path), { recursive: true });
  const db = openSqlite(path, { create: true, driver });
  // Created here too, so a report read before the first search is empty rather than an error.
  db.exec(ANALYTICS_SCHEMA.join(';\n'));
  return db;
}
