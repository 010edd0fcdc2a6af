import type { SearchDatabase, SearchStatement } from '../db/types.js';
import { OTHER_QUERY, type AnalyticsBatch } from './aggregate.js';

/** The tables analytics write, in the index database on D1 or in a file of their own beside a local index. */
export const QUERIES_TABLE = 'site_search_queries';
export const CLICKS_TABLE = 'site_search_clicks';

/**
 * Primary keys are the aggregation keys: a flush adds to a row, never appends one per search. The query comes before
 * the type so the cap's "is this query stored today" is a lookup of the key's prefix, not a scan of the day.
 */
export const ANALYTICS_SCHEMA = [
  `CREATE TABLE IF NOT EXISTS ${QUERIES_TABLE} (day TEXT NOT NULL, site TEXT NOT NULL, type TEXT NOT NULL, query TEXT NOT NULL, searches INTEGER NOT NULL, zero INTEGER NOT NULL, results INTEGER NOT NULL, match TEXT NOT NULL, suggestion TEXT NOT NULL, PRIMARY KEY (day, site, query, type)) WITHOUT ROWID`,
  `CREATE TABLE IF NOT EXISTS ${CLICKS_TABLE} (day TEXT NOT NULL, site TEXT NOT NULL, query TEXT NOT NULL, url TEXT NOT NULL, rank INTEGER NOT NULL, clicks INTEGER NOT NULL, PRIMARY KEY (day, site, query, url, rank)) WITHOUT ROWID`,
];

/**
 * Adds a batch of query counts in one statement. The daily cap is decided in SQL, against what is stored (other
 * processes write too): a query already stored that day is added to; new ones are admitted, in query order, while the
 * day's distinct queries stay within the cap; the rest are added to the "other" row. The SELECT is evaluated before
 * its rows are inserted (window functions read every row first), so the stored count is the one before the batch.
 */
const ADD_SEARCHES = `WITH incoming AS (
  SELECT value ->> 0 AS day, value ->> 1 AS site, value ->> 2 AS type, value ->> 3 AS query, value ->> 4 AS searches,
         value ->> 5 AS zero, value ->> 6 AS results, value ->> 7 AS match, value ->> 8 AS suggestion
  FROM json_each(?)
), stored AS (
  SELECT q.day, q.site, count(DISTINCT q.query) AS n FROM ${QUERIES_TABLE} q
  WHERE q.query <> '${OTHER_QUERY}' AND (q.day, q.site) IN (SELECT day, site FROM incoming)
  GROUP BY q.day, q.site
), judged AS (
  SELECT i.*,
    i.query = '${OTHER_QUERY}' OR EXISTS (SELECT 1 FROM ${QUERIES_TABLE} q WHERE q.day = i.day AND q.site = i.site AND q.query = i.query) AS known,
    coalesce((SELECT n FROM stored s WHERE s.day = i.day AND s.site = i.site), 0) AS stored
  FROM incoming i
), admitted AS (
  SELECT j.*, known OR stored + dense_rank() OVER (PARTITION BY day, site, known ORDER BY query) <= ? AS fits FROM judged j
)
INSERT INTO ${QUERIES_TABLE} (day, site, type, query, searches, zero, results, match, suggestion)
SELECT day, site, type, CASE WHEN fits THEN query ELSE '${OTHER_QUERY}' END, searches, zero,
  CASE WHEN fits THEN results ELSE 0 END, CASE WHEN fits THEN match ELSE 'none' END, CASE WHEN fits THEN suggestion ELSE '' END
FROM admitted WHERE true
ON CONFLICT (day, site, query, type) DO UPDATE SET searches = searches + excluded.searches, zero = zero + excluded.zero,
  results = excluded.results, match = excluded.match, suggestion = excluded.suggestion`;

/**
 * Adds a batch of clicks in one statement: only for a query stored that day (a click for a query no search asked is
 * noise or forged), and while the day's click rows stay under ten times the query cap.
 */
const ADD_CLICKS = `WITH incoming AS (
  SELECT value ->> 0 AS day, value ->> 1 AS site, value ->> 2 AS query, value ->> 3 AS url, value ->> 4 AS rank, value ->> 5 AS clicks
  FROM json_each(?)
)
INSERT INTO ${CLICKS_TABLE} (day, site, query, url, rank, clicks)
SELECT day, site, query, url, rank, clicks FROM incoming i
WHERE i.query <> '${OTHER_QUERY}'
  AND EXISTS (SELECT 1 FROM ${QUERIES_TABLE} q WHERE q.day = i.day AND q.site = i.site AND q.query = i.query)
  AND (SELECT count(*) FROM ${CLICKS_TABLE} c WHERE c.day = i.day AND c.site = i.site) < ? * 10
ON CONFLICT (day, site, query, url, rank) DO UPDATE SET clicks = clicks + excluded.clicks`;

/** Writes analytics batches to a SQL database (D1 or local SQLite): a flush is one batch, one round trip on D1. */
export class SqlAnalyticsStore {
  #schemaReady = false;
  #retainedOn = '';

  constructor(
    private readonly db: SearchDatabase,
    private readonly options: { cap: number; retentionDays: number },
  ) {}

  async write(batch: AnalyticsBatch, today: string): Promise<void> {
    const statements: SearchStatement[] = [];
    const sql = (text: string, ...values: (string | number)[]) => statements.push(this.db.prepare(text).bind(...values));
    // Created by the first flush of a process rather than by a push: the analytics file may be new, the index older.
    if (!this.#schemaReady) for (const create of ANALYTICS_SCHEMA) sql(create);
    if (this.#retainedOn !== today) {
      const oldest = new Date(Date.parse(today) - (this.options.retentionDays - 1) * 86_400_000).toISOString().slice(0, 10);
      for (const table of [QUERIES_TABLE, CLICKS_TABLE]) sql(`DELETE FROM ${table} WHERE day < ?`, oldest);
    }
    if (batch.searches.length) {
      const rows = batch.searches.map((r) => [r.day, r.site, r.type, r.query, r.searches, r.zero, r.results, r.match, r.suggestion]);
      sql(ADD_SEARCHES, JSON.stringify(rows), this.options.cap);
    }
    if (batch.clicks.length) {
      const rows = batch.clicks.map((c) => [c.day, c.site, c.query, c.url, c.rank, c.clicks]);
      sql(ADD_CLICKS, JSON.stringify(rows), this.options.cap);
    }
    if (!statements.length) return;
    if (this.db.batch) await this.db.batch(statements);
    else for (const statement of statements) await statement.run();
    this.#schemaReady = true;
    this.#retainedOn = today;
  }
}
