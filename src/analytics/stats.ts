import type { SearchDatabase } from '../db/types.js';
import { OTHER_QUERY } from './aggregate.js';
import { CLICKS_TABLE, predatesSources, QUERIES_TABLE } from './sql-store.js';

/** A query of the report, summed over types and days. */
export interface QueryStats {
  query: string;
  searches: number;
  /** Searches that found nothing. */
  zero: number;
  clicks: number;
  /** The results opened for it: where they were and how often. */
  opened: { url: string; rank: number; clicks: number }[];
}

/** What AI assistants asked through the MCP server's `search` tool (docs/mcp.md): counted apart from readers. */
export interface AssistantStats {
  searches: number;
  /** Searches that found nothing. */
  zeroResults: number;
  /** Searches of new queries past the daily cap, counted without their text. */
  other: number;
  topQueries: { query: string; searches: number; zero: number }[];
  zeroResultQueries: { query: string; searches: number }[];
}

/**
 * What `site-search stats` reports (docs/analytics.md, "Reading the report"): readers' searches (the endpoint, the box)
 * and, apart, assistants' (`assistants`).
 */
export interface AnalyticsStats {
  site: string;
  /** First and last day of the period, `YYYY-MM-DD` (UTC). */
  from: string;
  to: string;
  searches: number;
  /** Searches that found nothing, and their share of all searches. */
  zeroResults: number;
  zeroResultRate: number;
  clicks: number;
  /** Results opened per search (a reader may open more than one). */
  clickThroughRate: number;
  /** Searches of new queries past the daily cap, counted without their text. */
  other: number;
  perDay: { day: string; searches: number; zero: number }[];
  topQueries: QueryStats[];
  zeroResultQueries: { query: string; searches: number }[];
  correctedQueries: { query: string; suggestion: string; searches: number }[];
  /** Opens per result rank (1 is the first result). */
  clickRanks: { rank: number; clicks: number }[];
  /** Searches by AI assistants through the MCP server, not counted in the fields above. */
  assistants: AssistantStats;
}

/** The row sets a report is made of, as each source (SQL tables, Analytics Engine) reads them. */
export interface StatsRows {
  perDay: { day: string; searches: number; zero: number }[];
  /** The most searched queries, most first. */
  queries: { query: string; searches: number; zero: number }[];
  opened: { query: string; url: string; rank: number; clicks: number }[];
  zeroResultQueries: { query: string; searches: number }[];
  correctedQueries: { query: string; suggestion: string; searches: number }[];
  other: number;
  assistants: AssistantStats;
}

/** The first and last day of the last `days` days, today (UTC) included. */
export function period(days: number, now = Date.now()): { from: string; to: string } {
  const to = new Date(now).toISOString().slice(0, 10);
  return { from: new Date(Date.parse(to) - (days - 1) * 86_400_000).toISOString().slice(0, 10), to };
}

/** Reads the report of the last `days` days (today included) from the analytics tables. */
export async function readStats(db: SearchDatabase, { days = 30, site = '', now = Date.now(), top = 20 } = {}): Promise<AnalyticsStats> {
  const { from, to } = period(days, now);
  // A table written before sources were counted apart holds readers' searches only (stats may not rebuild it: the
  // file is opened read-only).
  const before = await predatesSources(db);
  const rows = async (sql: string, ...extra: (string | number)[]) =>
    (await db.prepare(sql).bind(site, from, ...extra).all<Record<string, unknown>>()).results;
  const inPeriod = `site = ? AND day >= ?`;
  const readers = `${inPeriod}${before ? '' : ` AND source <> 'mcp'`}`;
  const n = (value: unknown) => Number(value ?? 0);
  const perDay = (await rows(`SELECT day, sum(searches) AS searches, sum(zero) AS zero FROM ${QUERIES_TABLE} WHERE ${readers} GROUP BY day ORDER BY day`))
    .map((r) => ({ day: String(r.day), searches: n(r.searches), zero: n(r.zero) }));
  const topQueries = (where: string) =>
    rows(`SELECT query, sum(searches) AS searches, sum(zero) AS zero FROM ${QUERIES_TABLE} WHERE ${where} AND query <> '${OTHER_QUERY}' GROUP BY query ORDER BY searches DESC, query LIMIT ?`, top)
      .then((found) => found.map((r) => ({ query: String(r.query), searches: n(r.searches), zero: n(r.zero) })));
  const zeroResultQueries = (where: string) =>
    rows(`SELECT query, sum(zero) AS searches FROM ${QUERIES_TABLE} WHERE ${where} AND query <> '${OTHER_QUERY}' GROUP BY query HAVING sum(zero) > 0 ORDER BY searches DESC, query LIMIT ?`, top)
      .then((found) => found.map((r) => ({ query: String(r.query), searches: n(r.searches) })));
  const opened = (await rows(`SELECT query, url, rank, sum(clicks) AS clicks FROM ${CLICKS_TABLE} WHERE ${inPeriod} GROUP BY query, url, rank ORDER BY clicks DESC, rank`))
    .map((r) => ({ query: String(r.query), url: String(r.url), rank: n(r.rank), clicks: n(r.clicks) }));
  const correctedQueries = (await rows(
    `SELECT query, suggestion, sum(searches) AS searches FROM ${QUERIES_TABLE} WHERE ${readers} AND match = 'typo' GROUP BY query, suggestion ORDER BY searches DESC, query LIMIT ?`,
    top,
  )).map((r) => ({ query: String(r.query), suggestion: String(r.suggestion), searches: n(r.searches) }));
  const [other] = await rows(`SELECT sum(searches) AS searches FROM ${QUERIES_TABLE} WHERE ${readers} AND query = '${OTHER_QUERY}'`);
  let assistants: AssistantStats = { searches: 0, zeroResults: 0, other: 0, topQueries: [], zeroResultQueries: [] };
  if (!before) {
    const asked = `${inPeriod} AND source = 'mcp'`;
    const [totals] = await rows(
      `SELECT sum(searches) AS searches, sum(zero) AS zero, sum(CASE WHEN query = '${OTHER_QUERY}' THEN searches END) AS other FROM ${QUERIES_TABLE} WHERE ${asked}`,
    );
    const [topAsked, zeroAsked] = await Promise.all([topQueries(asked), zeroResultQueries(asked)]);
    assistants = { searches: n(totals?.searches), zeroResults: n(totals?.zero), other: n(totals?.other), topQueries: topAsked, zeroResultQueries: zeroAsked };
  }
  const [queries, zeroes] = await Promise.all([topQueries(readers), zeroResultQueries(readers)]);
  return assembleStats(site, { from, to }, { perDay, queries, opened, zeroResultQueries: zeroes, correctedQueries, other: n(other?.searches), assistants });
}

/** The report from its row sets: totals, rates, and each top query with the results opened for it. */
export function assembleStats(site: string, { from, to }: { from: string; to: string }, rows: StatsRows): AnalyticsStats {
  const clickRanks = new Map<number, number>();
  for (const o of rows.opened) clickRanks.set(o.rank, (clickRanks.get(o.rank) ?? 0) + o.clicks);
  const searches = rows.perDay.reduce((sum, d) => sum + d.searches, 0);
  const zeroResults = rows.perDay.reduce((sum, d) => sum + d.zero, 0);
  const clicks = [...clickRanks.values()].reduce((sum, c) => sum + c, 0);
  return {
    site,
    from,
    to,
    searches,
    zeroResults,
    zeroResultRate: searches ? zeroResults / searches : 0,
    clicks,
    clickThroughRate: searches ? clicks / searches : 0,
    other: rows.other,
    perDay: rows.perDay,
    topQueries: rows.queries.map((q) => {
      const mine = rows.opened.filter((o) => o.query === q.query).map(({ url, rank, clicks }) => ({ url, rank, clicks }));
      return { ...q, clicks: mine.reduce((sum, o) => sum + o.clicks, 0), opened: mine };
    }),
    zeroResultQueries: rows.zeroResultQueries,
    correctedQueries: rows.correctedQueries,
    clickRanks: [...clickRanks].sort(([a], [b]) => a - b).map(([rank, clicks]) => ({ rank, clicks })),
    assistants: rows.assistants,
  };
}
