import { SiteSearchError } from '../errors.js';
import { assembleStats, period, type AnalyticsStats } from './stats.js';

/** Where the CLI reads an Analytics Engine dataset: Cloudflare's SQL API, with an account id and an API token. */
export interface EngineSqlAccess {
  accountId: string;
  /** An API token with Account · Account Analytics · Read. */
  apiToken: string;
  /** The dataset name (`dataset` in `analytics_engine_datasets`, not the binding name). */
  dataset: string;
  fetch?: typeof fetch;
}

/**
 * Reads the report of the last `days` days from a Workers Analytics Engine dataset through its SQL API. The columns are
 * those `engine-store.ts` writes; every count is weighted by `_sample_interval` (Analytics Engine samples at volume).
 * The API takes no parameters: the site is written into the SQL as a quoted literal, the dataset name must be an
 * identifier.
 */
export async function readEngineStats(access: EngineSqlAccess, { days = 30, site = '', now = Date.now(), top = 20 } = {}): Promise<AnalyticsStats> {
  if (!/^[A-Za-z_][\w]*$/.test(access.dataset)) throw new SiteSearchError(`--engine must be an Analytics Engine dataset name such as site_search, not "${access.dataset}".`);
  const { from, to } = period(days, now);
  const where = (kind: string) => `blob1 = '${kind}' AND index1 = ${quote(site)} AND timestamp >= toDateTime('${from} 00:00:00')`;
  // Points written before blob8 carry '' there: readers' searches.
  const searches = `FROM ${access.dataset} WHERE ${where('search')} AND blob8 <> 'mcp'`;
  const asked = `FROM ${access.dataset} WHERE ${where('search')} AND blob8 = 'mcp'`;
  const count = 'SUM(_sample_interval)';
  const zero = 'sumIf(_sample_interval, double1 = 0)';
  const query = (sql: string) => runSql(access, sql);
  const n = (value: unknown) => Math.round(Number(value ?? 0));
  const [perDay, queries, opened, zeroes, corrected, askedTotals, askedQueries, askedZeroes] = await Promise.all([
    query(`SELECT toStartOfDay(timestamp) AS day, ${count} AS searches, ${zero} AS zero ${searches} GROUP BY day ORDER BY day`),
    query(`SELECT blob4 AS query, ${count} AS searches, ${zero} AS zero ${searches} GROUP BY query ORDER BY searches DESC LIMIT ${top}`),
    query(`SELECT blob4 AS query, blob7 AS url, double2 AS rank, ${count} AS clicks FROM ${access.dataset} WHERE ${where('click')} GROUP BY query, url, rank ORDER BY clicks DESC`),
    query(`SELECT blob4 AS query, ${zero} AS searches ${searches} GROUP BY query HAVING searches > 0 ORDER BY searches DESC LIMIT ${top}`),
    query(`SELECT blob4 AS query, blob6 AS suggestion, ${count} AS searches ${searches} AND blob5 = 'typo' GROUP BY query, suggestion ORDER BY searches DESC LIMIT ${top}`),
    query(`SELECT ${count} AS searches, ${zero} AS zero ${asked}`),
    query(`SELECT blob4 AS query, ${count} AS searches, ${zero} AS zero ${asked} GROUP BY query ORDER BY searches DESC LIMIT ${top}`),
    query(`SELECT blob4 AS query, ${zero} AS searches ${asked} GROUP BY query HAVING searches > 0 ORDER BY searches DESC LIMIT ${top}`),
  ]);
  return assembleStats(site, { from, to }, {
    perDay: perDay.map((r) => ({ day: String(r.day).slice(0, 10), searches: n(r.searches), zero: n(r.zero) })),
    queries: queries.map((r) => ({ query: String(r.query), searches: n(r.searches), zero: n(r.zero) })),
    opened: opened.map((r) => ({ query: String(r.query), url: String(r.url), rank: n(r.rank), clicks: n(r.clicks) })),
    zeroResultQueries: zeroes.map((r) => ({ query: String(r.query), searches: n(r.searches) })),
    correctedQueries: corrected.map((r) => ({ query: String(r.query), suggestion: String(r.suggestion), searches: n(r.searches) })),
    // Analytics Engine has no cap to apply: every query keeps its text.
    other: 0,
    assistants: {
      searches: n(askedTotals[0]?.searches),
      zeroResults: n(askedTotals[0]?.zero),
      other: 0,
      topQueries: askedQueries.map((r) => ({ query: String(r.query), searches: n(r.searches), zero: n(r.zero) })),
      zeroResultQueries: askedZeroes.map((r) => ({ query: String(r.query), searches: n(r.searches) })),
    },
  });
}

/** A string as an SQL literal: quoted, `'` and `\` escaped. */
function quote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

async function runSql(access: EngineSqlAccess, sql: string): Promise<Record<string, unknown>[]> {
  const url = `https://api.cloudflare.com/client/v4/accounts/${encodeURIComponent(access.accountId)}/analytics_engine/sql`;
  const response = await (access.fetch ?? fetch)(url, { method: 'POST', headers: { Authorization: `Bearer ${access.apiToken}` }, body: `${sql} FORMAT JSON` });
  const text = await response.text();
  if (!response.ok) throw new SiteSearchError(`The Analytics Engine SQL API answered ${response.status}: ${text.slice(0, 300)}`);
  return (JSON.parse(text) as { data?: Record<string, unknown>[] }).data ?? [];
}
