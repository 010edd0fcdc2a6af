/**
 * Performance benchmark: site-search and its peers in one run, on the same records. Part of `npm run bench`, which
 * writes docs/benchmarks.md; `npm run bench:perf` prints the tables only.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { create, insertMultiple, search as oramaSearch } from '@orama/orama';
import { build } from 'esbuild';
import FlexSearch from 'flexsearch';
import { Miniflare } from 'miniflare';
import MiniSearch from 'minisearch';
import { openSqlite } from '../adapters/node.js';
import { createSearchHandler, resolveConfig, type SearchDatabase, type SearchStatement, type SqlValue } from '../src/index.js';
import { toFtsQuery } from '../src/search/query.js';
import { pushStatements, writeIndex, type IndexDocument } from '../src/indexer/index.js';
import { SECTIONS_TABLE, VOCAB_TABLE } from '../src/db/schema.js';
import { segmentUnspaced } from '../src/text/segment.js';
import { observe } from '../test/helpers/observe.js';
import { baseConfig, documents, withoutWordBreaks, writeCorpusFiles } from './corpus.js';
import { corpusOptions, loadQueries } from './labeled-queries.js';
import { reindexAfterEdit } from './incremental.js';
import { worstCase } from './worst-case.js';

const here = dirname(fileURLToPath(import.meta.url));
const work = join(here, 'results', 'perf');
/**
 * Latency rounds: this machine's speed drifts by a tenth or more within minutes, and with 5 rounds the medians moved
 * about as much between runs.
 */
const ROUNDS = 11;

/** The query mix: the 80 labeled queries plus the common words and 2-letter prefixes a search box sees while typing. */
export const QUERY_MIX: [string, string][] = [
  ...loadQueries().map((q) => [q.query, q.lang] as [string, string]),
  ...['astro', 'the', 'co', 'de', 'component', 'config', 'page', 'import', 'build', 'deploy'].map((q) => [q, 'en'] as [string, string]),
];

type Stats = { p50: number; p95: number; p99: number };
/** Median over rounds of each percentile, with the min–max over rounds. */
export type Measured = Record<keyof Stats, Spread>;
/** A median with the min–max around it. */
export type Spread = { median: number; min: number; max: number };

function spread(values: number[]): Spread {
  const s = [...values].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)]!, min: s[0]!, max: s[s.length - 1]! };
}

function percentiles(samples: number[]): Stats {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99) };
}

type QueryFn = (q: string, lang: string) => Promise<unknown> | unknown;
/**
 * A query step timed on its own, after an untimed step that sets the scene (e.g. leaves the CPU caches as it would).
 * `excluded`, when given, returns the ms of the step that its sample leaves out (read once after each run).
 */
type Timed = { before?: QueryFn; run: QueryFn; excluded?: () => number };

/** Runs `fn` over the query mix ROUNDS times (after one warm-up) and summarises the per-round percentiles. */
async function measure(fn: QueryFn): Promise<Measured> {
  return (await measureInterleaved({ fn })).fn!;
}

/**
 * Like {@link measure} for several functions at once, taken query by query: each query of a round runs through every
 * function before the next query, in a shuffled order (a fixed seed per query and round), so each function follows
 * each other one equally often and none gains from always finding the CPU caches warm from the same query. The
 * samples of a ratio between them are then milliseconds apart, and the machine being slower for a while (it drifts by
 * a third within minutes) tilts neither side.
 */
async function measureInterleaved(fns: Record<string, QueryFn | Timed>): Promise<Record<string, Measured>> {
  const steps = Object.entries(fns).map(([name, fn]) => ({ name, ...(typeof fn === 'function' ? { run: fn } : fn) }));
  for (const { before, run } of steps) {
    for (const [q, lang] of QUERY_MIX) {
      await before?.(q, lang);
      await run(q, lang);
    }
  }
  const rounds: Record<string, Stats[]> = Object.fromEntries(steps.map(({ name }) => [name, []]));
  for (let r = 0; r < ROUNDS; r++) {
    const samples: Record<string, number[]> = Object.fromEntries(steps.map(({ name }) => [name, []]));
    for (const [i, [q, lang]] of QUERY_MIX.entries()) {
      for (const { name, before, run, excluded } of shuffled(steps, r * QUERY_MIX.length + i)) {
        await before?.(q, lang);
        excluded?.(); // starts the count afresh, so only this run's excluded time is taken off below
        const t = performance.now();
        await run(q, lang);
        const ms = performance.now() - t;
        samples[name]!.push(ms - (excluded?.() ?? 0));
      }
    }
    for (const { name } of steps) rounds[name]!.push(percentiles(samples[name]!));
  }
  return Object.fromEntries(Object.entries(rounds).map(([name, stats]) => [name, summarise(stats)]));
}

/** A copy of `items` in an order fixed by `seed` (Fisher–Yates over a small linear congruential generator). */
function shuffled<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let state = (seed * 2654435761 + 1) >>> 0;
  for (let i = out.length - 1; i > 0; i--) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

function summarise(rounds: Stats[]): Measured {
  return { p50: spread(rounds.map((r) => r.p50)), p95: spread(rounds.map((r) => r.p95)), p99: spread(rounds.map((r) => r.p99)) };
}

interface Native {
  prepare(sql: string): { all(...params: unknown[]): unknown[] };
}

/** Query latency at `n` documents: handler, the same SQL on the driver, FTS5's bare floor, and the peers. */
async function latency(n: number, withPeers: boolean) {
  const docs = await documents(n);
  const path = join(work, `latency-${n}.db`);
  rmSync(path, { force: true });
  const writer = openSqlite(path, { create: true });
  await writer.transaction(() => writeIndex(writer, baseConfig, docs));
  writer.close();
  // Searched through a connection of its own, as a server opens an index the CLI built.
  const db = openSqlite(path);
  const rows: Record<string, Measured> = {};

  const handler = createSearchHandler(baseConfig, { db, cache: false });
  const request = (q: string, lang: string) => new Request(`http://bench/api/search?q=${encodeURIComponent(q)}&type=${lang}`);

  // The statements a handler ran for each query, to replay straight on the driver: the limit the handler adds to.
  type Statements = (q: string, lang: string) => { sql: string; params: SqlValue[] }[];
  const record = async (config: typeof baseConfig, database: SearchDatabase, keep = (_sql: string) => true): Promise<Statements> => {
    const recorded = new Map<string, { sql: string; params: SqlValue[] }[]>();
    let current: { sql: string; params: SqlValue[] }[] = [];
    const recording = createSearchHandler(config, { db: observe(database, (sql, params) => current.push({ sql, params })), cache: false });
    for (const [q, lang] of QUERY_MIX) {
      current = [];
      await (await recording(request(q, lang))).text();
      recorded.set(`${lang}\u0000${q}`, current.filter(({ sql }) => keep(sql)));
    }
    return (q, lang) => recorded.get(`${lang}\u0000${q}`)!;
  };
  const native = rawDriver(path);
  const onDriver = (statementsOf: Statements) => (q: string, lang: string) => {
    for (const { sql, params } of statementsOf(q, lang)) native.prepare(sql).all(...params);
  };
  const recorded = await record(baseConfig, db);
  const everyStatement = QUERY_MIX.flatMap(([q, lang]) => recorded(q, lang));
  const sameSql = onDriver(recorded);
  // And the handler with the database's answers held in memory: its JavaScript alone.
  const replayed = createSearchHandler(baseConfig, { db: await replayAnswers(db, everyStatement), cache: false });
  const bare = bareFetchHandler(native, recorded);
  // The handler doing only what SPEC.md asks of it (no widening, no sections), and the SQL it runs.
  const specConfig = resolveConfig({ ...baseConfig, widen: false, ranking: 'fts5' });
  const specDb = withoutSections(db);
  const specOnly = createSearchHandler(specConfig, { db: specDb, cache: false });
  const specRecorded = await record(specConfig, specDb);
  const specSameSql = onDriver((q, lang) => specRecorded(q, lang).map((s) => ({ ...s, sql: stripSections(s.sql) })));
  const inSitu = timingStatements(db);
  const inSituHandler = createSearchHandler(baseConfig, { db: inSitu.db, cache: false });
  const prefixed = withPrefixIndex(path, join(work, `prefix-${n}.db`));
  const better = openSqlite(path, { driver: 'better-sqlite3' });
  const betterHandler = createSearchHandler(baseConfig, { db: better, cache: false });
  Object.assign(
    rows,
    await measureInterleaved({
      [HANDLER_ROW]: async (q, lang) => (await handler(request(q, lang))).text(),
      [SAME_SQL_ROW]: sameSql,
      [AFTER_JS_ROW]: { before: async (q, lang) => (await replayed(request(q, lang))).text(), run: sameSql },
      [FLOOR_ROW]: (q) => bareFloor(native, 'search_index', q),
      [PREFIX_FLOOR_ROW]: (q) => bareFloor(prefixed, 'prefixed', q),
      'site-search handler on better-sqlite3': async (q, lang) => (await betterHandler(request(q, lang))).text(),
      [JS_ONLY_ROW]: async (q, lang) => (await replayed(request(q, lang))).text(),
      [IN_SITU_JS_ROW]: { run: async (q, lang) => (await inSituHandler(request(q, lang))).text(), excluded: inSitu.take },
      [FETCH_FLOOR_ROW]: async (q, lang) => (await bare(request(q, lang))).text(),
      [SPEC_ONLY_ROW]: async (q, lang) => (await specOnly(request(q, lang))).text(),
      [SPEC_ONLY_SQL_ROW]: specSameSql,
    }),
  );
  better.close();
  const breakdown = sqlBreakdown(native, everyStatement);
  const slowest = { floor: slowestFloor(native, 'search_index'), prefixed: slowestFloor(prefixed, 'prefixed') };

  if (withPeers) {
    const records = docs.map(withoutWordBreaks);
    const mini = new MiniSearch<Record<string, unknown>>({
      fields: ['title', 'description', 'tags', 'content'],
      storeFields: ['url', 'type'],
      searchOptions: { boost: { title: 3, description: 2, tags: 2 }, prefix: true, fuzzy: 0.2 },
    });
    mini.addAll(records.map(({ sections: _, ...d }, id) => ({ ...d, id })));
    rows['MiniSearch search()'] = await measure((q, lang) => mini.search(q, { filter: (r) => r.type === lang }).slice(0, 10));

    const orama = create({ schema: { title: 'string', description: 'string', tags: 'string', content: 'string', url: 'string', type: 'enum' } as const });
    await insertMultiple(orama, records.map(({ title, description, tags, content, url, type }) => ({ title, description, tags, content, url, type })));
    rows['Orama search()'] = await measure((q, lang) =>
      oramaSearch(orama, { term: q, where: { type: { eq: lang } }, properties: ['title', 'description', 'tags', 'content'], tolerance: 1, limit: 10 }),
    );

    const flex = new FlexSearch.Document({ document: { id: 'id', index: ['title', 'description', 'tags', 'content'], tag: ['type'], store: ['url'] } });
    records.forEach(({ sections: _, ...d }, id) => flex.add({ ...d, id }));
    rows['FlexSearch search()'] = await measure((q, lang) => flex.search(q, { limit: 10, tag: { type: lang }, enrich: true }));
  }
  db.close();
  return { rows, breakdown, slowest };
}

/**
 * What each kind of statement the handler runs costs: mean ms per query of the mix, each statement timed alone (best
 * of 3). The details statements are timed a second time with their snippet() left out, which gives what FTS5's
 * snippets cost, per query and per result.
 */
function sqlBreakdown(native: Native, statements: { sql: string; params: SqlValue[] }[]): Record<string, number> {
  const kind = (sql: string) =>
    sql.includes('snippet(') ? 'details with snippets' : sql.includes(SECTIONS_TABLE) ? 'sections' : sql.includes(VOCAB_TABLE) ? 'typo candidates' : sql.includes('bm25(') ? 'ranking' : 'other';
  const time = (sql: string, params: SqlValue[]) => {
    const statement = native.prepare(sql);
    statement.all(...params);
    let best = Infinity;
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      statement.all(...params);
      best = Math.min(best, performance.now() - t);
    }
    return best;
  };
  const totals: Record<string, number> = {};
  let snippets = 0;
  let results = 0;
  for (const { sql, params } of statements) {
    const ms = time(sql, params);
    const name = kind(sql);
    totals[name] = (totals[name] ?? 0) + ms / QUERY_MIX.length;
    if (name !== 'details with snippets') continue;
    snippets += ms - time(sql.replace(/snippet\(.*?\) AS snippet/s, 'NULL AS snippet'), params);
    results += params.length - 3; // the match expression and the rowid range, then one id per result
  }
  return { ...totals, 'of which snippet()': snippets / QUERY_MIX.length, 'snippet() per result': results ? snippets / results : 0 };
}

/** The handler's latency row, and the row of the same statements replayed on the driver (what the handler adds to). */
export const HANDLER_ROW = 'site-search handler (Request → JSON Response)';
export const SAME_SQL_ROW = 'same SQL, run directly on node:sqlite';

/** The bare ranking of the literal query: the least any FTS5 ranking of it can cost. */
export const FLOOR_ROW = 'FTS5 floor: bare ORDER BY bm25 LIMIT 10';
/** The same on a copy of the texts in a table with a prefix index, which the table DESIGN.md fixes does not have. */
export const PREFIX_FLOOR_ROW = "FTS5 floor on a table with a prefix index (prefix='2 3')";

/** The SPEC.md match expression for `q`, as the floor rows search it (`''` when it has no term). */
const floorMatch = (q: string) => toFtsQuery(segmentUnspaced(q.toLowerCase(), ' '));

function bareFloor(native: Native, table: string, q: string) {
  const match = floorMatch(q);
  if (match) native.prepare(`SELECT rowid, bm25(${table}, 10, 5, 1, 3) AS bm FROM ${table} WHERE ${table} MATCH ? ORDER BY bm LIMIT 10`).all(match);
}

/** The query of the mix whose bare ranking takes longest (best of 3), and how many documents it matches. */
function slowestFloor(native: Native, table: string): { query: string; ms: number; matches: number; documents: number } {
  let query = '';
  let worst = -1;
  for (const [q] of QUERY_MIX) {
    if (!floorMatch(q)) continue;
    let ms = Infinity;
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      bareFloor(native, table, q);
      ms = Math.min(ms, performance.now() - t);
    }
    if (ms > worst) [query, worst] = [q, ms];
  }
  const count = (sql: string, ...params: string[]) => Number((native.prepare(sql).all(...params)[0] as { n: number }).n);
  return {
    query,
    ms: worst,
    matches: count(`SELECT count(*) AS n FROM ${table} WHERE ${table} MATCH ?`, floorMatch(query)),
    documents: count(`SELECT count(*) AS n FROM ${table}`),
  };
}

/**
 * The index's searchable texts copied into an FTS5 table `prefixed` with `prefix='2 3'` (same tokenizer), in a file
 * of its own: how far a prefix index would lower the floor for 2-letter prefixes, and what it leaves (common words).
 */
function withPrefixIndex(indexPath: string, path: string): Native {
  rmSync(path, { force: true });
  const sqlite = process.getBuiltinModule('node:sqlite') as typeof import('node:sqlite');
  const db = new sqlite.DatabaseSync(path);
  db.prepare('ATTACH ? AS source').run(indexPath);
  db.exec(`BEGIN;
    CREATE VIRTUAL TABLE prefixed USING fts5(title, description, content, tags, tokenize = 'porter unicode61 remove_diacritics 2', prefix = '2 3');
    INSERT INTO prefixed (rowid, title, description, content, tags) SELECT rowid, title, description, content, tags FROM source.search_index;
    INSERT INTO prefixed (prefixed) VALUES ('optimize');
    COMMIT;
    DETACH source;`);
  db.close();
  return rawDriver(path);
}

/** The latency row of the handler answering from recorded results: what it adds to its SQL, measured on its own. */
export const JS_ONLY_ROW = 'handler, the database answers replayed from memory (its JavaScript alone)';
/**
 * The same SQL, each query timed right after the handler's JavaScript ran for it (untimed): what the SQL costs with
 * the CPU caches as the handler leaves them, rather than warm from the previous query's SQL.
 */
export const AFTER_JS_ROW = "same SQL, each query run right after the handler's JavaScript (untimed)";

/**
 * The handler's time less the time its statements took, each timed inside it: its JavaScript as it runs between
 * them, with the CPU caches as the SQL leaves them (the replay row runs the same JavaScript with nothing in between).
 */
export const IN_SITU_JS_ROW = "handler's JavaScript as it runs between its statements (its time less theirs)";

/**
 * The least a Fetch handler can add to the same SQL: a bare handler that reads the query string, runs the statements
 * the search ran for it, and answers the result rows (the details statement's) as a JSON Response.
 */
export const FETCH_FLOOR_ROW = 'bare Fetch handler around the same SQL (query string in, its result rows as JSON out)';

function bareFetchHandler(native: Native, statementsOf: (q: string, lang: string) => { sql: string; params: SqlValue[] }[]) {
  return async (request: Request): Promise<Response> => {
    const params = new URL(request.url).searchParams;
    let rows: unknown[] = [];
    for (const { sql, params: values } of statementsOf(params.get('q') ?? '', params.get('type') ?? '')) {
      const answer = native.prepare(sql).all(...values);
      if (sql.includes('snippet(')) rows = answer;
    }
    return new Response(JSON.stringify({ results: rows }), {
      headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'public, max-age=60' },
    });
  };
}

/**
 * The handler with `widen: false` and `ranking: 'fts5'` on a database whose search statement reads no sections: the
 * work SPEC.md asks of a handler (validation, the literal query and formula, snippets, escaping, JSON), without this
 * package's additions (widening, typo corrections, titles, sections). Beside its own SQL, what that part of the handler
 * adds.
 */
export const SPEC_ONLY_ROW = "handler doing only what SPEC.md asks (widen: false, ranking: 'fts5', no sections)";
export const SPEC_ONLY_SQL_ROW = 'the SQL of the handler doing only what SPEC.md asks, run directly on node:sqlite';

/** The sections sub-select of the search statement (src/db/search-plan.ts). */
const SECTIONS_SUBSELECT = new RegExp(`\\(SELECT json_group_array\\(json_array\\(heading[\\s\\S]*?FROM ${SECTIONS_TABLE} WHERE page = p\\.id ORDER BY position\\)\\)`);

/** A search statement without its sections sub-select (NULL instead). */
function stripSections(sql: string): string {
  const stripped = sql.replace(SECTIONS_SUBSELECT, 'NULL');
  if (stripped === sql && sql.includes(SECTIONS_TABLE)) throw new Error('[bench] the search statement changed: update SECTIONS_SUBSELECT');
  return stripped;
}

/** `db` with the search statement's sections left out (a bench-only device: see SPEC_ONLY_ROW). */
function withoutSections(db: SearchDatabase): SearchDatabase {
  return { prepare: (sql) => db.prepare(stripSections(sql)) };
}

/**
 * The database with each statement's run timed; `take()` returns the ms spent in statements since the last call.
 * On node:sqlite a statement runs synchronously inside `all()`, so that call's duration is the statement's.
 */
function timingStatements(db: SearchDatabase): { db: SearchDatabase; take: () => number } {
  let spent = 0;
  const wrap = (statement: SearchStatement): SearchStatement => ({
    bind: (...values) => wrap(statement.bind(...values)),
    all: <Row>() => {
      const t = performance.now();
      const answer = statement.all<Row>();
      spent += performance.now() - t;
      return answer;
    },
    run: () => statement.run(),
  });
  return {
    db: { prepare: (sql) => wrap(db.prepare(sql)) },
    take: () => {
      const ms = spent;
      spent = 0;
      return ms;
    },
  };
}

/**
 * A database that answers each of `statements` with the rows the real one gave, without running SQL; any other
 * statement fails, so the replay cannot silently drift from what the handler ran.
 */
async function replayAnswers(db: SearchDatabase, statements: { sql: string; params: SqlValue[] }[]): Promise<SearchDatabase> {
  // A ranking statement's first value is today's day number (recency): keyed without it, so a run that crosses
  // midnight UTC still finds its answers.
  const key = (sql: string, params: SqlValue[]) => `${sql}\u0000${JSON.stringify(sql.includes('? - day') ? params.slice(1) : params)}`;
  const answers = new Map<string, unknown[]>();
  for (const { sql, params } of statements) answers.set(key(sql, params), (await db.prepare(sql).bind(...params).all()).results);
  const statement = (sql: string, params: SqlValue[]) => ({
    bind: (...values: SqlValue[]) => statement(sql, values),
    all: async <Row>() => {
      const results = answers.get(key(sql, params));
      if (!results) throw new Error(`[bench] no recorded answer for ${sql}`);
      return { results: results as Row[] };
    },
    run: async () => {
      throw new Error('[bench] the replayed database is read-only');
    },
  });
  return { prepare: (sql) => statement(sql, []) };
}

function rawDriver(path: string): Native {
  const sqlite = process.getBuiltinModule('node:sqlite') as typeof import('node:sqlite');
  const db = new sqlite.DatabaseSync(path);
  const cache = new Map<string, ReturnType<typeof db.prepare>>();
  return {
    prepare: (sql) => {
      let st = cache.get(sql);
      if (!st) cache.set(sql, (st = db.prepare(sql)));
      return st as unknown as { all(...params: unknown[]): unknown[] };
    },
  };
}

/** Runs bench/child.mjs in a fresh process and returns its JSON line. */
function child(...args: string[]): Record<string, number | string> {
  const out = execFileSync(process.execPath, [join(here, 'child.mjs'), ...args], { cwd: join(here, '..'), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(out.trim().split('\n').pop()!);
}

/** Builds per engine. Taken in turn (a build of each engine, then the next round), like the latency rounds. */
const BUILD_ROUNDS = 3;

/** One engine's indexing figures: time and peak RSS over BUILD_ROUNDS builds; rates from the median time. */
export interface IndexingRow {
  /** How many builds the figures come from. */
  builds: number;
  ms: Spread;
  rssMB: Spread;
  docsPerSec: number;
  mbPerSec: number;
  diskMB?: number;
}

/** Files → ready index: the CLI (parsing Markdown included) and the peers' builds (from extracted records). */
async function indexing(n: number, peers: 'all' | 'pagefind') {
  const dir = join(work, `files-${n}`);
  rmSync(dir, { recursive: true, force: true });
  const bytes = await writeCorpusFiles(dir, n);
  const langs = [...new Set(corpusOptions().sources.map((s) => s.type))];
  const config = join(dir, 'search.config.json');
  writeFileSync(config, JSON.stringify({ database: 'bench', sources: langs.map((l) => ({ dir: l, type: l, url: `/${l}/:slug` })) }));
  // Each build starts from nothing: its output (a file or a folder, measured for its size) is removed first, so a
  // SQLite build is always a new file rather than a push into the previous round's.
  // `rounds` below BUILD_ROUNDS: a build too long to repeat (Pagefind at 100,000 documents takes minutes).
  const builds: { name: string; output?: string; args: string[]; rounds?: number }[] = [];
  const sqlite = join(work, `index-${n}.db`);
  builds.push({ name: 'site-search CLI (files → SQLite)', output: sqlite, args: ['cli-index', config, sqlite] });
  const mini = join(work, `minisearch-${n}.json`);
  const orama = join(work, `orama-${n}.json`);
  const flex = join(work, `flexsearch-${n}.json`);
  const inputs: string[] = [];
  const pagefindBuild = (records: string, rounds?: number) => {
    const pagefind = join(work, `pagefind-${n}`);
    return { name: 'Pagefind (Node API)', output: pagefind, args: ['build', 'Pagefind', records, pagefind], rounds };
  };
  const docs = await documents(n);
  const records = join(work, `records-${n}.ndjson`);
  writeNdjson(records, (function* () {
    for (const d of docs) {
      const { sections: _, ...record } = withoutWordBreaks(d);
      yield record;
    }
  })());
  inputs.push(records);
  if (peers === 'all') {
    const ours = join(work, `records-site-search-${n}.ndjson`);
    writeNdjson(ours, docs);
    inputs.push(ours);
    const fromRecords = join(work, `records-${n}.db`);
    builds.push(
      { name: 'site-search from the same records (no Markdown parsing)', output: fromRecords, args: ['build', 'site-search', ours, fromRecords, JSON.stringify(corpusOptions())] },
      { name: 'MiniSearch addAll()', output: mini, args: ['build', 'MiniSearch', records, mini] },
      { name: 'Orama insertMultiple()', output: orama, args: ['build', 'Orama', records, orama] },
      { name: 'FlexSearch add()', output: flex, args: ['build', 'FlexSearch', records, flex] },
      pagefindBuild(records),
    );
  } else {
    // The in-memory peers cannot hold 100,000 documents here; Pagefind can, once.
    builds.push(pagefindBuild(records, 1));
  }
  const runs = new Map<string, { ms: number; rssMB: number }[]>(builds.map((b) => [b.name, []]));
  for (let round = 0; round < BUILD_ROUNDS; round++) {
    for (const { name, output, args, rounds = BUILD_ROUNDS } of builds) {
      if (round >= rounds) continue;
      for (const path of output ? [output, `${output}-wal`, `${output}-shm`] : []) rmSync(path, { recursive: true, force: true });
      // The previous build's output (or the corpus just written) is flushed first, so no build pays for another's
      // write-back.
      execFileSync('sync');
      const r = child(...args);
      runs.get(name)!.push({ ms: Number(r.buildMs), rssMB: Number(r.rssMB) });
    }
  }
  for (const path of inputs) rmSync(path);
  const rows: Record<string, IndexingRow> = {};
  for (const { name, output } of builds) {
    const ms = spread(runs.get(name)!.map((r) => r.ms));
    const seconds = ms.median / 1000;
    rows[name] = {
      builds: runs.get(name)!.length,
      ms,
      rssMB: spread(runs.get(name)!.map((r) => r.rssMB)),
      docsPerSec: n / seconds,
      mbPerSec: bytes / 1e6 / seconds,
      diskMB: output ? diskBytes(output) / 1e6 : undefined,
    };
  }
  return { bytes, rows, sqlite, serialized: { mini, orama, flex } };
}

/** Writes one JSON object per line, a line at a time (the records of 100,000 documents do not fit in one string). */
function writeNdjson(path: string, items: Iterable<unknown>): void {
  const fd = openSync(path, 'w');
  try {
    for (const item of items) writeSync(fd, `${JSON.stringify(item)}\n`);
  } finally {
    closeSync(fd);
  }
}

/** Bytes of a file, or of every file under a folder. */
function diskBytes(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .reduce((sum, e) => sum + statSync(join(e.parentPath, e.name)).size, 0);
}

/** The first-answer row the target compares with. */
export const MINISEARCH_FIRST_ROW = 'MiniSearch: load JSON index + search';
/** The first-answer row of site-search. */
export const SQLITE_FIRST_ROW = 'site-search: open SQLite file + search';

/** From a fresh process to the first answer, index on disk: our SQLite file vs the peers' serialized indexes. */
function firstAnswer(sqlite: string, { mini, orama, flex }: { mini: string; orama: string; flex: string }) {
  const time = (args: string[]) => {
    const samples: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      const r = spawnSync(process.execPath, [join(here, 'child.mjs'), ...args], { cwd: join(here, '..') });
      if (r.status !== 0) throw new Error(String(r.stderr));
      samples.push(performance.now() - t);
      // A load that lost the index would answer nothing, fast: every engine must find a page.
      if (!JSON.parse(String(r.stdout).trim().split('\n').pop()!).first) throw new Error(`[bench] ${args[0]} found nothing`);
    }
    return samples.sort((a, b) => a - b)[2]!;
  };
  const miniOptions = JSON.stringify({ fields: ['title', 'description', 'tags', 'content'], storeFields: ['url', 'type'] });
  return {
    [SQLITE_FIRST_ROW]: time(['first-answer-sqlite', sqlite, JSON.stringify(corpusOptions())]),
    [MINISEARCH_FIRST_ROW]: time(['first-answer-minisearch', mini, miniOptions]),
    'Orama: load() its saved JSON + search': time(['first-answer-orama', orama]),
    'FlexSearch: import() its exported JSON + search': time(['first-answer-flexsearch', flex]),
  };
}

/** Minified, gzipped bytes of a bundle of `entry`. */
async function bundleSize(entry: string, platform: 'neutral' | 'browser' = 'neutral'): Promise<{ min: number; gzip: number }> {
  // FlexSearch's bundle references worker_threads for its optional Node worker mode; it is not part of a browser build.
  const out = await build({ entryPoints: [entry], bundle: true, minify: true, format: 'esm', platform, mainFields: ['module', 'main'], external: ['worker_threads'], write: false, logLevel: 'silent' });
  const code = out.outputFiles[0]!.contents;
  return { min: code.length, gzip: gzipSync(code, { level: 9 }).length };
}

async function bundles() {
  const peerEntry = (name: string, code: string) => {
    const file = join(work, `entry-${name}.mjs`);
    writeFileSync(file, code);
    return file;
  };
  // Pagefind's client is the same whatever the corpus: take the output of any size this run built.
  const pagefindDir = join(work, readdirSync(work).filter((name) => name.startsWith('pagefind-')).sort()[0] ?? 'pagefind-1831');
  const pagefindJs = readFileSync(join(pagefindDir, 'pagefind.js'));
  const wasm = readFileSync(join(pagefindDir, 'wasm.en.pagefind'));
  return {
    'site-search Worker (createWorker: core + workers entry)': await bundleSize(join(here, '../adapters/workers.ts')),
    'MiniSearch': await bundleSize(peerEntry('minisearch', "export { default } from 'minisearch';")),
    'Orama': await bundleSize(peerEntry('orama', "export { create, insert, search } from '@orama/orama';")),
    'FlexSearch': await bundleSize(peerEntry('flexsearch', "export { default } from 'flexsearch';")),
    'Pagefind (pagefind.js + its WebAssembly, as served)': { min: pagefindJs.length + wasm.length, gzip: gzipSync(pagefindJs).length + wasm.length },
  };
}

/** D1 under Miniflare: rows read per query (what D1 bills) for the mix, and the Worker's cache-hit path. */
/** Which steps a search took, from the steps its results came from: the loosest one names it. */
function queryClass(steps: (string | undefined)[]): string {
  if (steps.length === 0) return 'no result';
  if (steps.includes('typo')) return 'typo correction';
  if (steps.includes('any')) return 'any term (widened)';
  return 'every term (strict)';
}

export async function d1(docs: IndexDocument[]) {
  // createWorker exactly as a user exports it, with the benchmark's options (one type per language).
  const worker = await build({
    stdin: { contents: `import { createWorker } from './adapters/workers.ts';\nexport default createWorker(${JSON.stringify(corpusOptions())});`, resolveDir: join(here, '..'), loader: 'ts' },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    write: false,
    logLevel: 'silent',
  });
  const mf = new Miniflare({ modules: true, script: worker.outputFiles[0]!.text, compatibilityDate: '2026-07-01', d1Databases: { SEARCH_DB: 'bench-d1' } });
  try {
    const d1 = (await mf.getD1Database('SEARCH_DB')) as unknown as SearchDatabase & { batch(s: unknown[]): Promise<unknown> };
    const statements = pushStatements(baseConfig, docs);
    for (let i = 0; i < statements.length; i += 50) await d1.batch(statements.slice(i, i + 50).map((s) => d1.prepare(s)));
    let rowsRead = 0;
    // Each statement the handler sends to D1 is one round trip from the Worker to the database.
    let trips = 0;
    const counting: SearchDatabase = {
      prepare(sql) {
        const wrap = (st: ReturnType<SearchDatabase['prepare']>): ReturnType<SearchDatabase['prepare']> => ({
          bind: (...v) => wrap(st.bind(...v)),
          all: async () => {
            trips++;
            const r = (await st.all()) as { results: never[]; meta?: { rows_read?: number } };
            rowsRead += r.meta?.rows_read ?? 0;
            return r;
          },
          run: () => (trips++, st.run()),
        });
        return wrap(d1.prepare(sql));
      },
    };
    const handler = createSearchHandler(baseConfig, { db: counting, cache: false });
    const perQuery: number[] = [];
    const classes = new Map<string, { trips: number[]; rowsRead: number[]; ms: number[] }>();
    for (const [q, lang] of QUERY_MIX) {
      rowsRead = 0;
      trips = 0;
      const started = performance.now();
      const body = (await (await handler(new Request(`http://bench/api/search?q=${encodeURIComponent(q)}&type=${lang}`))).json()) as { results: { match?: string }[] };
      const ms = performance.now() - started;
      perQuery.push(rowsRead);
      const name = queryClass(body.results.map((r) => r.match));
      const c = classes.get(name) ?? { trips: [], rowsRead: [], ms: [] };
      classes.set(name, c);
      c.trips.push(trips);
      c.rowsRead.push(rowsRead);
      c.ms.push(ms);
    }
    // The Worker (createWorker with caches.default): a first request, then the same one served from the cache.
    const miss: number[] = [];
    const hit: number[] = [];
    for (const [i, [q, lang]] of QUERY_MIX.slice(0, 40).entries()) {
      const url = `http://bench.test/api/search?q=${encodeURIComponent(q)}&type=${lang}&n=${i}`;
      let t = performance.now();
      await (await mf.dispatchFetch(url)).text();
      miss.push(performance.now() - t);
      for (let tries = 0; tries < 20; tries++) {
        t = performance.now();
        const res = await mf.dispatchFetch(url);
        await res.text();
        if (res.headers.get('X-Search-Cache') === 'HIT') {
          hit.push(performance.now() - t);
          break;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const network = [...classes].map(([name, c]) => ({ name, queries: c.trips.length, trips: mean(c.trips), maxTrips: Math.max(...c.trips), rowsRead: mean(c.rowsRead), p50ms: percentiles(c.ms).p50 }));
    return { rowsRead: percentiles(perQuery), meanRowsRead: mean(perQuery), miss: percentiles(miss), hit: percentiles(hit), network };
  } finally {
    await mf.dispose();
  }
}

export async function runPerf({ sizes = [1831, 10_000, 100_000] }: { sizes?: number[] } = {}) {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const result: Record<string, unknown> = { queries: QUERY_MIX.length, rounds: ROUNDS, buildRounds: BUILD_ROUNDS };
  const latencies: Record<number, unknown> = {};
  const breakdowns: Record<number, unknown> = {};
  const slowestFloors: Record<number, unknown> = {};
  const indexes: Record<number, unknown> = {};
  const worstCases: Record<number, unknown> = {};
  const reindexes: Record<number, unknown> = {};
  let serialized: { mini: string; orama: string; flex: string } | undefined;
  let sqlite10k = '';
  for (const n of sizes) {
    const peers = n <= 10_000;
    console.error(`[bench] indexing ${n} files…`);
    const ix = await indexing(n, peers ? 'all' : 'pagefind');
    indexes[n] = { bytes: ix.bytes, rows: ix.rows };
    if (n === 10_000) [serialized, sqlite10k] = [ix.serialized, ix.sqlite];
    if (n !== 10_000) {
      console.error(`[bench] re-index after a one-page edit at ${n} files…`);
      reindexes[n] = reindexAfterEdit(join(work, `files-${n}`), join(work, `reindex-${n}.db`));
    }
    console.error(`[bench] query latency at ${n} documents…`);
    const { rows, breakdown, slowest } = await latency(n, peers);
    latencies[n] = rows;
    breakdowns[n] = breakdown;
    slowestFloors[n] = slowest;
    console.error(`[bench] worst case (one-letter last term) at ${n} documents…`);
    worstCases[n] = await worstCase(join(work, `latency-${n}.db`));
  }
  result.worstCase = worstCases;
  result.reindex = reindexes;
  result.latency = latencies;
  result.sqlBreakdown = breakdowns;
  result.slowestFloor = slowestFloors;
  result.indexing = indexes;
  if (serialized) result.firstAnswer = firstAnswer(sqlite10k, serialized);
  console.error('[bench] bundle sizes…');
  result.bundles = await bundles();
  console.error('[bench] D1 under Miniflare…');
  result.d1 = await d1(await documents(1831));
  writeFileSync(join(here, 'results', 'perf.json'), JSON.stringify(result, null, 2));
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = process.argv.slice(2).map(Number).filter(Boolean);
  console.log(JSON.stringify(await runPerf(sizes.length ? { sizes } : {}), null, 2));
}
