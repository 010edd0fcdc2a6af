import type { SearchDatabase, SearchStatement, SqlValue } from '../db/types.js';
import { queryD1 } from '../indexer/wrangler.js';

/**
 * A read-only D1 database reached through `wrangler d1 execute --command --json` (local or remote), for the CLI's
 * reports. wrangler's `--command` takes no parameters, so each value is written into the SQL as a literal: strings
 * quoted with `'` doubled, numbers as they are. Only the CLI's own statements and values go through it.
 */
export function wranglerDatabase(database: string, where: { remote: boolean; cwd: string; args?: string[] }): SearchDatabase {
  const statement = (sql: string, values: SqlValue[] = []): SearchStatement => ({
    bind: (...next) => statement(sql, next),
    async all<Row>() {
      let i = 0;
      const text = sql.replace(/\?/g, () => literal(values[i++] ?? null));
      const [rows] = await queryD1(database, [text], where);
      return { results: (rows ?? []) as Row[] };
    },
    async run() {
      throw new Error('[site-search] the wrangler database of the reports is read-only');
    },
  });
  return { prepare: (sql) => statement(sql) };
}

function literal(value: SqlValue): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'string') return `'${value.replace(/'/g, "''")}'`;
  throw new Error('[site-search] a blob cannot be written into a wrangler command');
}
