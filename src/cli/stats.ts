import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { SiteSearchError } from '../errors.js';
import type { SearchDatabase } from '../db/types.js';
import type { Flags } from './args.js';
import type { LoadedConfig } from './load-config.js';
import { printable, terminalJson } from './report.js';
import { readStats, type AnalyticsStats } from '../analytics/stats.js';
import { renderHtmlReport } from '../analytics/report-html.js';
import { QUERIES_TABLE } from '../analytics/sql-store.js';

/** `site-search stats`: the analytics report of the last `--days` days, as text, `--json` or an `--html` page. */
export async function stats(loaded: LoadedConfig, flags: Flags, wranglerArgs: string[]): Promise<number> {
  const days = Number(flags.days ?? 30);
  if (!Number.isInteger(days) || days < 1 || days > 3660) throw new SiteSearchError(`--days must be a whole number of days from 1, not "${String(flags.days)}".`);
  const report = typeof flags.engine === 'string' ? await fromEngine(flags.engine, days, loaded.config.site) : await fromTables(loaded, flags, wranglerArgs, days);
  if (typeof flags.html === 'string') {
    const out = resolve(flags.html);
    writeFileSync(out, renderHtmlReport(report));
    console.log(`[site-search] analytics report written to ${out}`);
  }
  if (flags.json) console.log(terminalJson(report));
  else if (typeof flags.html !== 'string') console.log(`${textReport(report)}\n\n${stillInMemory(loaded, flags)}`);
  return 0;
}

/**
 * What a server may hold that the report cannot show yet: counts are written in batches (docs/analytics.md, "D1 cost"),
 * so a report read right after a search can miss it. Said in full, so an empty report is not taken for analytics off.
 */
export function stillInMemory(loaded: LoadedConfig, flags: Flags): string {
  const seconds = loaded.config.analytics ? loaded.config.analytics.flushSeconds : 300;
  if (typeof flags.engine === 'string') return 'Analytics Engine data points are written with each search, and appear in its SQL API within a minute or two.';
  if (seconds === 0) return 'Every search answered is here: with flushSeconds: 0 each is written as it is answered.';
  return flags.d1 !== undefined
    ? `Searches of the last ${seconds} s may not be here yet: a Worker writes the first search of each isolate at once, then holds its counts in memory and writes them with its first request after they are ${seconds} s old (flushSeconds).`
    : `Searches of the last ${seconds} s may not be here yet: a Node server writes its first search at once, then what it counted every ${seconds} s (flushSeconds), and all it holds when it stops.`;
}

/** The report from the SQL tables: the analytics file, or D1 through wrangler. */
async function fromTables(loaded: LoadedConfig, flags: Flags, wranglerArgs: string[], days: number): Promise<AnalyticsStats> {
  const { db, where, close } = await openSource(loaded, flags, wranglerArgs);
  try {
    return await readStats(db, { days, site: loaded.config.site });
  } catch (e) {
    if (/no such table/i.test((e as Error).message)) throw new SiteSearchError(nothingYet(loaded, where, flags));
    throw e;
  } finally {
    close();
  }
}

/** The report from a Workers Analytics Engine dataset, through Cloudflare's SQL API. */
async function fromEngine(dataset: string, days: number, site: string): Promise<AnalyticsStats> {
  const { CLOUDFLARE_ACCOUNT_ID: accountId, CLOUDFLARE_API_TOKEN: apiToken } = process.env;
  if (!accountId || !apiToken) {
    throw new SiteSearchError('--engine reads Analytics Engine through its SQL API: set CLOUDFLARE_ACCOUNT_ID and CLOUDFLARE_API_TOKEN (a token with Account Analytics: Read).');
  }
  const { readEngineStats } = await import('../analytics/engine-sql.js');
  return readEngineStats({ accountId, apiToken, dataset }, { days, site });
}

/** The analytics file (`--from`, else `analytics.sqlitePath`), or the D1 database through wrangler (`--d1`). */
async function openSource(loaded: LoadedConfig, flags: Flags, wranglerArgs: string[]): Promise<{ db: SearchDatabase; where: string; close(): void }> {
  if (flags.d1 !== undefined) {
    const { wranglerDatabase } = await import('./wrangler-database.js');
    const remote = flags.d1 === 'remote';
    return { db: wranglerDatabase(loaded.config.database, { remote, cwd: process.cwd(), args: wranglerArgs }), where: `D1 database "${loaded.config.database}" (${remote ? 'remote' : 'local'})`, close() {} };
  }
  const configured = loaded.config.analytics ? loaded.config.analytics.sqlitePath : '.site-search/analytics.db';
  const path = typeof flags.from === 'string' ? resolve(flags.from) : resolve(loaded.cwd, configured);
  if (!existsSync(path)) {
    throw new SiteSearchError(`No analytics file at ${path}: set analytics: true in the search options and search once, or pass --from FILE (or --d1 local|remote).`);
  }
  const { openSqlite } = await import('../db/sqlite.js');
  // A report, read once: no worker threads to start.
  const db = openSqlite(path, { threads: 0 });
  const { results } = await db.prepare(`SELECT count(*) AS n FROM sqlite_schema WHERE name = ?`).bind(QUERIES_TABLE).all<{ n: number }>();
  if (!Number(results[0]?.n)) {
    db.close();
    throw new SiteSearchError(nothingYet(loaded, path, flags));
  }
  return { db, where: path, close: () => db.close() };
}

/** Why a store holds no analytics: the option is off, or (on) the server has not written its counts yet. */
function nothingYet(loaded: LoadedConfig, where: string, flags: Flags): string {
  if (!loaded.config.analytics) return `No analytics recorded in ${where} yet: set analytics: true in the search options, then search (docs/analytics.md).`;
  return `No analytics written to ${where} yet (analytics is on). ${stillInMemory(loaded, flags)} Search, then run stats again.`;
}

/** Assistants' searches (the MCP server's `search` tool), apart from readers': counted in none of the lines above. */
function assistantsReport(a: AnalyticsStats['assistants'], q: (text: string) => string, pct: (rate: number) => string): string[] {
  const rate = a.searches ? a.zeroResults / a.searches : 0;
  return [
    'Asked by AI assistants (MCP)',
    `  searches ${a.searches} · no results ${a.zeroResults} (${pct(rate)})${a.other ? ` · other (past the daily cap) ${a.other}` : ''}`,
    ...(a.topQueries.length ? a.topQueries.map((t) => `  ${String(t.searches).padStart(6)}  ${q(t.query)}${t.zero ? `  (${t.zero} with no results)` : ''}`) : ['  none']),
  ];
}

/** The report for a terminal: every query through printable() (a query is text a stranger typed). */
export function textReport(s: AnalyticsStats): string {
  const pct = (rate: number) => `${(rate * 100).toFixed(1)}%`;
  const q = (text: string) => `"${printable(text)}"`;
  const lines = [
    `Search analytics${s.site ? ` for ${printable(s.site)}` : ''}, ${s.from} to ${s.to}`,
    `  searches ${s.searches} · no results ${s.zeroResults} (${pct(s.zeroResultRate)}) · results opened ${s.clicks} (click-through ${pct(s.clickThroughRate)})${s.other ? ` · other (past the daily cap) ${s.other}` : ''}`,
    '',
    'Top queries',
    ...(s.topQueries.length ? s.topQueries.flatMap((t) => [
      `  ${String(t.searches).padStart(6)}  ${q(t.query)}${t.zero ? `  (${t.zero} with no results)` : ''}`,
      ...t.opened.map((o) => `          opened #${o.rank} ${printable(o.url)} ×${o.clicks}`),
    ]) : ['  none']),
    '',
    'Queries with no results',
    ...(s.zeroResultQueries.length ? s.zeroResultQueries.map((z) => `  ${String(z.searches).padStart(6)}  ${q(z.query)}`) : ['  none']),
    '',
    'Corrected queries',
    ...(s.correctedQueries.length ? s.correctedQueries.map((c) => `  ${String(c.searches).padStart(6)}  ${q(c.query)} → ${q(c.suggestion)}`) : ['  none']),
    '',
    ...assistantsReport(s.assistants, q, pct),
  ];
  return lines.join('\n');
}
