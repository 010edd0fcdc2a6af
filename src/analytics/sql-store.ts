import type { SearchDatabase, SearchStatement } from '../db/types.js';
import { OTHER_QUERY, type AnalyticsBatch } from './aggregate.js';

/** The tables analytics write, in the index database on D1 or in a file of their own beside a local index. */
export const QUERIES_TABLE = 'site_search_queries';
export const CLICKS_TABLE = 'site_search_clicks';
/**
 * Queries searched that day but not stored (their counts are in "other"), at most the cap of them per day, site and
 * source: what a query searched again has earned towards a place among the stored ones (docs/analytics.md, "Daily cap").
 */
export const CANDIDATES_TABLE = 'site_search_candidates';
/** The queries one write evicts, chosen once and read by the statements that move them; empty between writes. */
const EVICTING_TABLE = 'site_search_evicting';

/** The readers' source: rows of a table written before sources were counted apart are theirs. */
export const READERS_SOURCE = 'endpoint';

const QUERIES_COLUMNS = `day TEXT NOT NULL, site TEXT NOT NULL, source TEXT NOT NULL DEFAULT '${READERS_SOURCE}', type TEXT NOT NULL, query TEXT NOT NULL, searches INTEGER NOT NULL, zero INTEGER NOT NULL, results INTEGER NOT NULL, match TEXT NOT NULL, suggestion TEXT NOT NULL, PRIMARY KEY (day, site, query, source, type)`;

/** The candidates' columns: `searches - error` is a lower bound of the query's searches in "other" (Space-Saving). */
const CANDIDATES_COLUMNS = `day TEXT NOT NULL, site TEXT NOT NULL, source TEXT NOT NULL DEFAULT '${READERS_SOURCE}', query TEXT NOT NULL, searches INTEGER NOT NULL, error INTEGER NOT NULL, PRIMARY KEY (day, site, source, query)`;
const EVICTING_COLUMNS = 'day TEXT NOT NULL, site TEXT NOT NULL, source TEXT NOT NULL, query TEXT NOT NULL, PRIMARY KEY (day, site, source, query)';

/**
 * Primary keys are the aggregation keys: a flush adds to a row, never appends one per search. The query comes before
 * the source and type so "is this query stored today" is a lookup of the key's prefix, not a scan of the day. Each
 * source has a cap of its own (issue 54, item 6): the same query from readers and from assistants is a query of each,
 * so a flood of assistants' queries can never take a reader's query's place.
 */
export const ANALYTICS_SCHEMA = [
  `CREATE TABLE IF NOT EXISTS ${QUERIES_TABLE} (${QUERIES_COLUMNS}) WITHOUT ROWID`,
  `CREATE TABLE IF NOT EXISTS ${CLICKS_TABLE} (day TEXT NOT NULL, site TEXT NOT NULL, query TEXT NOT NULL, url TEXT NOT NULL, rank INTEGER NOT NULL, clicks INTEGER NOT NULL, PRIMARY KEY (day, site, query, url, rank)) WITHOUT ROWID`,
  `CREATE TABLE IF NOT EXISTS ${CANDIDATES_TABLE} (${CANDIDATES_COLUMNS}) WITHOUT ROWID`,
  `CREATE TABLE IF NOT EXISTS ${EVICTING_TABLE} (${EVICTING_COLUMNS}) WITHOUT ROWID`,
];

/** The tables that hold days (the retention deletes their old ones). */
const DAY_TABLES = [QUERIES_TABLE, CLICKS_TABLE, CANDIDATES_TABLE];

/** Whether the queries table (if any) predates the source column: its `CREATE` statement as SQLite keeps it. */
const QUERIES_TABLE_SQL = `SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = '${QUERIES_TABLE}'`;
/** The same for the candidates table, whose key took the source in issue 54. */
const CANDIDATES_TABLE_SQL = `SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = '${CANDIDATES_TABLE}'`;

/**
 * A queries table written before sources were counted apart, rebuilt with the column and the key that holds it, its
 * rows kept as readers' (the only searches counted then). A primary key cannot be altered in place, so the rows move
 * to a new table that takes the old one's name, in one batch (one transaction on D1).
 */
const ADD_SOURCE = [
  `CREATE TABLE ${QUERIES_TABLE}_sources (${QUERIES_COLUMNS}) WITHOUT ROWID`,
  `INSERT INTO ${QUERIES_TABLE}_sources (day, site, source, type, query, searches, zero, results, match, suggestion)
SELECT day, site, '${READERS_SOURCE}', type, query, searches, zero, results, match, suggestion FROM ${QUERIES_TABLE}`,
  `DROP TABLE ${QUERIES_TABLE}`,
  `ALTER TABLE ${QUERIES_TABLE}_sources RENAME TO ${QUERIES_TABLE}`,
];

/** True when the queries table exists without the source column (read by `stats` on a file it may not write). */
export async function predatesSources(db: SearchDatabase): Promise<boolean> {
  const { results } = await db.prepare(QUERIES_TABLE_SQL).all<{ sql: string }>();
  const sql = results[0]?.sql;
  return sql !== undefined && !/\bsource\b/.test(sql);
}

/**
 * The candidates and the evicting tables of a version whose cap counted readers and assistants together, rebuilt with
 * the source in their key. The candidates' rows are kept as readers' (a lower bound of searches in "other" either
 * way); the evicting table is empty between writes.
 */
const CANDIDATES_ADD_SOURCE = [
  `CREATE TABLE ${CANDIDATES_TABLE}_sources (${CANDIDATES_COLUMNS}) WITHOUT ROWID`,
  `INSERT INTO ${CANDIDATES_TABLE}_sources (day, site, source, query, searches, error) SELECT day, site, '${READERS_SOURCE}', query, searches, error FROM ${CANDIDATES_TABLE}`,
  `DROP TABLE ${CANDIDATES_TABLE}`,
  `ALTER TABLE ${CANDIDATES_TABLE}_sources RENAME TO ${CANDIDATES_TABLE}`,
  `DROP TABLE IF EXISTS ${EVICTING_TABLE}`,
];

/** Whether the candidates table (if any) predates the source in its key. */
async function candidatesPredateSources(db: SearchDatabase): Promise<boolean> {
  const { results } = await db.prepare(CANDIDATES_TABLE_SQL).all<{ sql: string }>();
  const sql = results[0]?.sql;
  return sql !== undefined && !/\bsource\b/.test(sql);
}

/** Rebuilds older tables with the source (nothing when they have it, or do not exist). */
export async function upgradeAnalyticsSchema(db: SearchDatabase): Promise<void> {
  const sql = [...((await predatesSources(db)) ? ADD_SOURCE : []), ...((await candidatesPredateSources(db)) ? CANDIDATES_ADD_SOURCE : [])];
  if (!sql.length) return;
  const statements = sql.map((text) => db.prepare(text));
  // One transaction where the driver has one (D1 and openSqlite do): another process sees the old tables or the new.
  if (db.batch) await db.batch(statements);
  else for (const statement of statements) await statement.run();
}

/** A batch's rows as a table: `?` is the batch, JSON. */
const INCOMING = `incoming AS MATERIALIZED (
  SELECT value ->> 0 AS day, value ->> 1 AS site, value ->> 2 AS type, value ->> 3 AS query, value ->> 4 AS searches,
         value ->> 5 AS zero, value ->> 6 AS results, value ->> 7 AS match, value ->> 8 AS suggestion, value ->> 9 AS source
  FROM json_each(?)
)`;

/** What a query has earned as a candidate (a lower bound of its searches in "other"); `t` is the row it is for. */
const EARNED = (t: string) =>
  `coalesce((SELECT p.searches - p.error FROM ${CANDIDATES_TABLE} p WHERE p.day = ${t}.day AND p.site = ${t}.site AND p.source = ${t}.source AND p.query = ${t}.query), 0)`;

/**
 * The daily cap as a heavy-hitters summary, for each source apart: a day keeps at most `?` queries of a source (the
 * readers', the assistants'), and when it is full a query new to it
 * takes the place of the stored query of least weight (fewest searches, counting those it earned as a candidate before
 * it was stored; then most of them with no result; then by text), provided its claim (this write's searches plus what
 * it earned as a candidate) is at least that weight. Weights and claims count only searches that were made, never an
 * estimate, so a one-off query (claim 1) only ever replaces another query searched once that day; and a query searched
 * again and again, one search per write, gathers its claim among the candidates until it enters. The batch's new
 * queries are taken highest claim first; the k-th one past the free room is paired with the k-th lightest stored query
 * not in the batch. `evicted` is those stored queries: their counts move to "other" and their rows and clicks are
 * deleted, before the batch is inserted (`ADD_SEARCHES`, which admits the same new queries into the room left).
 */
const EVICTED = `${INCOMING}, stored AS MATERIALIZED (
  SELECT q.day, q.site, q.source, q.query, sum(q.searches) + ${EARNED('q')} AS searches, sum(q.zero) AS zero FROM ${QUERIES_TABLE} q
  WHERE q.query <> '${OTHER_QUERY}' AND (q.day, q.site, q.source) IN (SELECT day, site, source FROM incoming)
  GROUP BY q.day, q.site, q.source, q.query
), room AS (
  SELECT day, site, source, ? - count(*) AS free FROM stored GROUP BY day, site, source
), newcomers AS (
  SELECT day, site, source, query, sum(searches) + ${EARNED('i')} AS searches,
    row_number() OVER (PARTITION BY day, site, source ORDER BY sum(searches) + ${EARNED('i')} DESC, query) AS nr
  FROM incoming i
  WHERE query <> '${OTHER_QUERY}' AND NOT EXISTS (SELECT 1 FROM stored s WHERE s.day = i.day AND s.site = i.site AND s.source = i.source AND s.query = i.query)
  GROUP BY day, site, source, query
), candidates AS (
  SELECT day, site, source, query, searches, row_number() OVER (PARTITION BY day, site, source ORDER BY searches, zero DESC, query) AS sr
  -- One value, not (day, site, source, query): a row-value NOT IN is not looked up in an index, where a list of values
  -- is built into one once. A batch is one site and a day or two.
  FROM stored WHERE source || char(0) || query NOT IN (SELECT source || char(0) || query FROM incoming)
), evicted AS (
  SELECT c.day, c.site, c.source, c.query FROM candidates c
  JOIN room r ON r.day = c.day AND r.site = c.site AND r.source = c.source AND r.free >= 0
  JOIN newcomers n ON n.day = c.day AND n.site = c.site AND n.source = c.source AND n.nr = c.sr + r.free
  WHERE n.searches >= c.searches
)`;

const IS_EVICTED = (table: string) =>
  `(${table}.day, ${table}.site, ${table}.source, ${table}.query) IN (SELECT day, site, source, query FROM ${EVICTING_TABLE})`;

/**
 * Eviction: `evicted` is chosen once (moving a query to the candidates changes what it has earned, so the choice is
 * not made again by each statement), its counts move to "other" and to its candidate (with what it earned before, a
 * lower bound of its day's searches), its clicks and rows are deleted. Only the first statement takes the batch and cap.
 */
const EVICT = [
  `WITH ${EVICTED} INSERT INTO ${EVICTING_TABLE} (day, site, source, query) SELECT day, site, source, query FROM evicted`,
  `INSERT INTO ${QUERIES_TABLE} (day, site, source, type, query, searches, zero, results, match, suggestion)
SELECT day, site, source, type, '${OTHER_QUERY}', searches, zero, 0, 'none', '' FROM ${QUERIES_TABLE} WHERE ${IS_EVICTED(QUERIES_TABLE)}
ON CONFLICT (day, site, query, source, type) DO UPDATE SET searches = searches + excluded.searches, zero = zero + excluded.zero`,
  `INSERT INTO ${CANDIDATES_TABLE} (day, site, source, query, searches, error)
SELECT day, site, source, query, sum(searches), 0 FROM ${QUERIES_TABLE} WHERE ${IS_EVICTED(QUERIES_TABLE)} GROUP BY day, site, source, query
ON CONFLICT (day, site, source, query) DO UPDATE SET searches = searches + excluded.searches`,
  // Clicks are readers' (the box reports them): they go with a readers' query only.
  `DELETE FROM ${CLICKS_TABLE} WHERE (day, site, query) IN (SELECT day, site, query FROM ${EVICTING_TABLE} WHERE source = '${READERS_SOURCE}')`,
  `DELETE FROM ${QUERIES_TABLE} WHERE ${IS_EVICTED(QUERIES_TABLE)}`,
  `DELETE FROM ${EVICTING_TABLE}`,
];

/**
 * After `ADD_SEARCHES`: the batch's queries that went to "other" add their searches to their candidate; a new candidate,
 * when the day's candidates are `?` already, starts from the least candidate's count as its error (Space-Saving: its
 * count may over-state, `searches - error` never does), then the least are dropped down to `?`. So a query searched
 * more often than the others that are not stored stays a candidate, and a flood of one-offs only replaces one-offs.
 */
const ADD_CANDIDATES = [
  `WITH ${INCOMING}, other AS (
  SELECT day, site, source, query, sum(searches) AS searches FROM incoming i
  WHERE query <> '${OTHER_QUERY}' AND NOT EXISTS (SELECT 1 FROM ${QUERIES_TABLE} q WHERE q.day = i.day AND q.site = i.site AND q.source = i.source AND q.query = i.query)
  GROUP BY day, site, source, query
), floor AS (
  SELECT day, site, source, CASE WHEN count(*) >= ? THEN min(searches) ELSE 0 END AS least FROM ${CANDIDATES_TABLE}
  WHERE (day, site, source) IN (SELECT day, site, source FROM other) GROUP BY day, site, source
)
INSERT INTO ${CANDIDATES_TABLE} (day, site, source, query, searches, error)
SELECT o.day, o.site, o.source, o.query, o.searches + coalesce(f.least, 0), coalesce(f.least, 0) FROM other o
LEFT JOIN floor f ON f.day = o.day AND f.site = o.site AND f.source = o.source WHERE true
ON CONFLICT (day, site, source, query) DO UPDATE SET searches = searches + excluded.searches - excluded.error`,
  `DELETE FROM ${CANDIDATES_TABLE} WHERE (day, site, source, query) IN (
  SELECT day, site, source, query FROM (
    SELECT day, site, source, query, row_number() OVER (PARTITION BY day, site, source ORDER BY searches DESC, searches - error DESC, query) AS nth FROM ${CANDIDATES_TABLE}
    WHERE (day, site, source) IN (SELECT value ->> 0, value ->> 1, value ->> 9 FROM json_each(?))
  ) WHERE nth > ?
)`,
];

/**
 * Adds a batch of query counts in one statement, after `EVICT`: a query already stored that day is added to; new ones
 * are admitted, highest claim first (as `EVICTED` orders them), while the day's distinct queries stay within the cap;
 * the rest are added to the "other" row. The SELECT is evaluated before its rows are inserted (window functions read every row first), so the
 * stored count is the one before the batch.
 */
const ADD_SEARCHES = `WITH ${INCOMING}, stored AS MATERIALIZED (
  SELECT q.day, q.site, q.source, count(DISTINCT q.query) AS n FROM ${QUERIES_TABLE} q
  WHERE q.query <> '${OTHER_QUERY}' AND (q.day, q.site, q.source) IN (SELECT day, site, source FROM incoming)
  GROUP BY q.day, q.site, q.source
), judged AS (
  SELECT i.*,
    i.query = '${OTHER_QUERY}' OR EXISTS (SELECT 1 FROM ${QUERIES_TABLE} q WHERE q.day = i.day AND q.site = i.site AND q.query = i.query AND q.source = i.source) AS known,
    coalesce((SELECT n FROM stored s WHERE s.day = i.day AND s.site = i.site AND s.source = i.source), 0) AS stored,
    sum(i.searches) OVER (PARTITION BY i.day, i.site, i.source, i.query) + ${EARNED('i')} AS total
  FROM incoming i
), admitted AS (
  SELECT j.*, known OR stored + dense_rank() OVER (PARTITION BY day, site, source, known ORDER BY total DESC, query) <= ? AS fits FROM judged j
)
INSERT INTO ${QUERIES_TABLE} (day, site, source, type, query, searches, zero, results, match, suggestion)
SELECT day, site, source, type, CASE WHEN fits THEN query ELSE '${OTHER_QUERY}' END, searches, zero,
  CASE WHEN fits THEN results ELSE 0 END, CASE WHEN fits THEN match ELSE 'none' END, CASE WHEN fits THEN suggestion ELSE '' END
FROM admitted WHERE true
ON CONFLICT (day, site, query, source, type) DO UPDATE SET searches = searches + excluded.searches, zero = zero + excluded.zero,
  results = excluded.results, match = excluded.match, suggestion = excluded.suggestion`;

/** A day's click rows are at most this many times the query cap (a query's readers open a few different results). */
export const CLICK_ROWS_PER_QUERY = 3;

/**
 * Adds a batch of clicks in one statement. A click counts only for a query stored that day (a click for a query no
 * search asked is noise or forged), and a query's clicks never pass its searches (a report counts at most once per
 * search it could belong to, so "results opened" never exceeds searches made; only readers' searches, since an
 * assistant opens no result in the box); the day's click rows stay under
 * {@link CLICK_ROWS_PER_QUERY} times the query cap.
 */
const ADD_CLICKS = `WITH incoming AS MATERIALIZED (
  SELECT value ->> 0 AS day, value ->> 1 AS site, value ->> 2 AS query, value ->> 3 AS url, value ->> 4 AS rank, value ->> 5 AS clicks
  FROM json_each(?)
  WHERE value ->> 2 <> '${OTHER_QUERY}'
), room AS (
  SELECT day, site, query,
    (SELECT coalesce(sum(q.searches), 0) FROM ${QUERIES_TABLE} q WHERE q.day = i.day AND q.site = i.site AND q.query = i.query AND q.source = '${READERS_SOURCE}')
    - (SELECT coalesce(sum(c.clicks), 0) FROM ${CLICKS_TABLE} c WHERE c.day = i.day AND c.site = i.site AND c.query = i.query) AS left
  FROM incoming i GROUP BY day, site, query
), stored AS MATERIALIZED (
  SELECT c.day, c.site, count(*) AS n FROM ${CLICKS_TABLE} c WHERE (c.day, c.site) IN (SELECT day, site FROM incoming) GROUP BY c.day, c.site
), granted AS (
  SELECT i.day, i.site, i.query, i.url, i.rank,
    min(i.clicks, r.left - (sum(i.clicks) OVER (PARTITION BY i.day, i.site, i.query ORDER BY i.url, i.rank ROWS UNBOUNDED PRECEDING) - i.clicks)) AS clicks,
    coalesce((SELECT n FROM stored s WHERE s.day = i.day AND s.site = i.site), 0) AS stored
  FROM incoming i JOIN room r ON r.day = i.day AND r.site = i.site AND r.query = i.query
)
INSERT INTO ${CLICKS_TABLE} (day, site, query, url, rank, clicks)
SELECT day, site, query, url, rank, clicks FROM (
  -- Rows of the batch counted as new even when they add to a stored row: the cap errs on the side of fewer rows.
  SELECT g.*, stored + row_number() OVER (PARTITION BY day, site ORDER BY clicks DESC, query, url, rank) AS nth FROM granted g WHERE clicks > 0
) WHERE nth <= ? * ${CLICK_ROWS_PER_QUERY}
ON CONFLICT (day, site, query, url, rank) DO UPDATE SET clicks = clicks + excluded.clicks`;

/** A day's distinct queries of a source after a write: whether the next write may have to evict. */
const COUNT_QUERIES = `SELECT count(*) AS n FROM (SELECT DISTINCT query FROM ${QUERIES_TABLE} WHERE day = ? AND site = ? AND source = ? AND query <> '${OTHER_QUERY}')`;

/** Writes analytics batches to a SQL database (D1 or local SQLite): a flush is one batch, one round trip on D1. */
export class SqlAnalyticsStore {
  #schemaReady = false;
  #upgraded: Promise<void> | undefined;
  #retainedOn = '';
  /** Distinct queries per day, site and source as the last write left them (`day\0site\0source`); another process's are seen at the next. */
  #stored = new Map<string, number>();

  constructor(
    private readonly db: SearchDatabase,
    private readonly options: { cap: number; retentionDays: number },
  ) {}

  async write(batch: AnalyticsBatch, today: string): Promise<void> {
    const statements: SearchStatement[] = [];
    const sql = (text: string, ...values: (string | number)[]) => statements.push(this.db.prepare(text).bind(...values));
    // Created by the first flush of a process rather than by a push: the analytics file may be new, the index older.
    // A table of an older version is rebuilt first (one read per process when it is current).
    if (!this.#schemaReady) {
      // Once per store, however many writes are in flight; tried again at the next write if it failed.
      await (this.#upgraded ??= upgradeAnalyticsSchema(this.db).catch((e: unknown) => {
        this.#upgraded = undefined;
        throw e;
      }));
      for (const create of ANALYTICS_SCHEMA) sql(create);
    }
    if (this.#retainedOn !== today) {
      this.#stored.clear();
      const oldest = new Date(Date.parse(today) - (this.options.retentionDays - 1) * 86_400_000).toISOString().slice(0, 10);
      for (const table of DAY_TABLES) sql(`DELETE FROM ${table} WHERE day < ?`, oldest);
    }
    const counted: string[] = [];
    if (batch.searches.length) {
      const rows = JSON.stringify(batch.searches.map((r) => [r.day, r.site, r.type, r.query, r.searches, r.zero, r.results, r.match, r.suggestion, r.source]));
      const queries = new Map<string, Set<string>>();
      for (const r of batch.searches) {
        const key = `${r.day}\0${r.site}\0${r.source}`;
        queries.set(key, (queries.get(key) ?? new Set()).add(r.query));
      }
      // Evicting reads the day's queries several times over (D1 bills rows read): it is sent only when this batch could
      // pass the cap as far as this process knows (at first, always). A day another process filled meanwhile is seen at
      // this write's count, and evicted from at the next.
      const cap = this.options.cap;
      const full = [...queries].some(([key, batchQueries]) => (this.#stored.get(key) ?? cap) + batchQueries.size > cap);
      if (full) {
        const [choose, ...move] = EVICT;
        sql(choose!, rows, cap);
        for (const statement of move) sql(statement);
      }
      sql(ADD_SEARCHES, rows, cap);
      // A batch that fits adds no query to "other" (nor does it evict): candidates are kept only at the cap.
      if (full) {
        const [add, trim] = ADD_CANDIDATES;
        sql(add!, rows, cap);
        sql(trim!, rows, cap);
      }
      for (const key of queries.keys()) {
        counted.push(key);
        sql(COUNT_QUERIES, ...(key.split('\0') as [string, string, string]));
      }
    }
    if (batch.clicks.length) {
      const rows = batch.clicks.map((c) => [c.day, c.site, c.query, c.url, c.rank, c.clicks]);
      sql(ADD_CLICKS, JSON.stringify(rows), this.options.cap);
    }
    if (!statements.length) return;
    const counts = statements.length - counted.length - (batch.clicks.length ? 1 : 0);
    let results: unknown[];
    if (this.db.batch) results = await this.db.batch(statements);
    else {
      results = [];
      for (const [i, statement] of statements.entries()) results.push(counted.length && i >= counts && i < counts + counted.length ? await statement.all() : await statement.run());
    }
    counted.forEach((key, i) => this.#stored.set(key, Number((results[counts + i] as { results?: { n?: number }[] } | undefined)?.results?.[0]?.n ?? this.options.cap)));
    this.#schemaReady = true;
    this.#retainedOn = today;
  }
}
