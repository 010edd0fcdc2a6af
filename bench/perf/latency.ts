/** Query latency at one corpus size: the handler, the same SQL on the driver, FTS5's floors, the peers, and the rows that take the handler apart. */
import { create, insertMultiple, search as oramaSearch } from '@orama/orama';
import FlexSearch from 'flexsearch';
import MiniSearch from 'minisearch';
import { openSqlite } from '../../adapters/node.js';
import { createSearchHandler, resolveConfig, type SearchDatabase, type SearchStatement, type SqlValue } from '../../src/index.js';
import { toFtsQuery } from '../../src/search/query.js';
import { writeIndex } from '../../src/indexer/index.js';
import { SECTIONS_TABLE } from '../../src/db/schema.js';
import { OPTIMIZE_STATEMENTS } from '../../src/db/write-plan.js';
import { segmentUnspaced } from '../../src/text/segment.js';
import { observe } from '../../test/helpers/observe.js';
import { baseConfig, documents, withoutWordBreaks } from '../corpus.js';
import { answeredBy, floorReport, floorStatement, rawDriver, type Answered, type FloorReport, type Native } from './answered-floor.js';
import { cpuMs, cpuTimeSync } from './cpu.js';
import { cachedIndex } from './index-cache.js';
import { type Measured, QUERY_MIX, type QueryFn, type Timed, measure, measureInterleaved } from './measure.js';

export type { Native } from './answered-floor.js';

/** The index of `n` documents the latency benchmarks search: built, or reused from an earlier run (bench/perf/index-cache.ts). */
export async function writeLatencyIndex(n: number): Promise<{ path: string }> {
  const { path, cached } = await cachedIndex(n, async (into) => {
    console.error(`[bench] writing the latency index of ${n} documents…`);
    const docs = await documents(n);
    const writer = openSqlite(into, { create: true });
    await writer.transaction(() => writeIndex(writer, baseConfig, docs));
    // FTS5's b-trees merged, as a whole push through the CLI leaves them.
    for (const sql of OPTIMIZE_STATEMENTS) writer.exec(sql);
    writer.close();
  });
  if (cached) console.error(`[bench] the latency index of ${n} documents, from an earlier run: ${path}`);
  return { path };
}

/** The row of FTS5's bm25 top 10 and `snippet()` of those 10 over the expression the handler answered (issue 36). */
export const ANSWERED_FLOOR_ROW = "FTS5 floor: bm25 top 10 + snippet() of those 10, over the expression the handler answered";

/** The rows `npm run bench:latency` times: the criterion's two, the same SQL and the bare floor beside them. */
/**
 * The floor over what the coverage ranking ranks (any informative word, with the corrections): what any FTS5 box
 * that ranks every page holding one of the query's words pays for the same answer.
 */
export const RANKED_FLOOR_ROW = 'FTS5 floor: bm25 top 10 + snippet() of those 10, over any informative word (what the handler ranks)';
/**
 * The handler with SPEC.md's literal ranking: bm25 × recency, the pages holding every word first, the others only when
 * they are too few (no coverage, no title or heading scores).
 */
export const ALL_WORDS_FIRST_ROW = "site-search handler, ranking: 'fts5' (SPEC.md's bm25, pages with every word first)";

/** The handler asked for the type and tag counts, as a box with its `facets` attribute asks (issue 44, item 3). */
export const FACETS_ROW = 'site-search handler, facets=type,tags (tags read from search_docs)';
/** The same, with every tag read from the full-text row as before `search_docs.tags` (schema version 11). */
export const FACETS_FULL_TEXT_ROW = 'site-search handler, facets=type,tags, tags read from the full-text row (before issue 44)';

const focusRows = () => new Set<string>([HANDLER_ROW, SAME_SQL_ROW, FLOOR_ROW, ANSWERED_FLOOR_ROW, RANKED_FLOOR_ROW, ALL_WORDS_FIRST_ROW, FACETS_ROW, FACETS_FULL_TEXT_ROW]);

/** The database with each statement reading a page's tags from its full-text row, as an index of schema version 11 did. */
function tagsFromFullText(db: SearchDatabase): SearchDatabase {
  return { prepare: (sql) => db.prepare(sql.replaceAll('coalesce(d.tags, f.tags)', 'f.tags')) };
}

/**
 * Query latency at `n` documents: handler, the same SQL on the driver, FTS5's floors, and the peers; every sample in
 * process CPU time. `floor` compares the handler with the answered floor query by query. `focus` times only
 * {@link FOCUS_ROWS} and the peers, without the rows that take the handler apart and the SQL breakdown: a third of
 * the work, for `npm run bench:latency`.
 */
export async function latency(n: number, withPeers: boolean, { focus = false }: { focus?: boolean } = {}) {
  const { path } = await writeLatencyIndex(n);
  // Searched through a connection of its own, as a server opens an index the CLI built. In this thread (`threads: 0`):
  // these rows are the handler's own CPU time; what the worker pool adds is in bench/starvation.
  const db = openSqlite(path, { threads: 0 });
  const rows: Record<string, Measured> = {};

  const handler = createSearchHandler(baseConfig, { db, cache: false });
  const request = (q: string, lang: string) => new Request(`http://bench/api/search?q=${encodeURIComponent(q)}${process.env.BENCH_NO_TYPE ? '' : `&type=${lang}`}`);

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
  const better = openSqlite(path, { driver: 'better-sqlite3', threads: 0 });
  const betterHandler = createSearchHandler(baseConfig, { db: better, cache: false });
  // What the handler answered for each query, derived once (untimed) from its response.
  const answer = await answeredBy(baseConfig, db);
  const answered = new Map<string, Answered>();
  for (const [q, lang] of QUERY_MIX) answered.set(`${lang}\u0000${q}`, await answer(q, lang));
  const floorSql = floorStatement(baseConfig);
  const answeredFloor = (q: string, lang: string) => native.prepare(floorSql).all(answered.get(`${lang}\u0000${q}`)!.match);
  const rankedFloor = (q: string, lang: string) => native.prepare(floorSql).all(answered.get(`${lang}\u0000${q}`)!.ranked);
  const allWordsFirst = createSearchHandler(resolveConfig({ ...baseConfig, ranking: 'fts5' }), { db, cache: false });
  const faceted = (q: string, lang: string) => new Request(`${request(q, lang).url}&facets=type,tags`);
  const fullTextTags = createSearchHandler(baseConfig, { db: tagsFromFullText(db), cache: false });
  const timed: Record<string, QueryFn | Timed> = {
    [HANDLER_ROW]: async (q, lang) => (await handler(request(q, lang))).text(),
    [SAME_SQL_ROW]: sameSql,
    [AFTER_JS_ROW]: { before: async (q, lang) => (await replayed(request(q, lang))).text(), run: sameSql },
    [FLOOR_ROW]: (q) => bareFloor(native, 'search_index', q),
    [ANSWERED_FLOOR_ROW]: answeredFloor,
    [RANKED_FLOOR_ROW]: rankedFloor,
    [ALL_WORDS_FIRST_ROW]: async (q, lang) => (await allWordsFirst(request(q, lang))).text(),
    [FACETS_ROW]: async (q, lang) => (await handler(faceted(q, lang))).text(),
    [FACETS_FULL_TEXT_ROW]: async (q, lang) => (await fullTextTags(faceted(q, lang))).text(),
    'site-search handler on better-sqlite3': async (q, lang) => (await betterHandler(request(q, lang))).text(),
    [JS_ONLY_ROW]: async (q, lang) => (await replayed(request(q, lang))).text(),
    [IN_SITU_JS_ROW]: { run: async (q, lang) => (await inSituHandler(request(q, lang))).text(), excluded: inSitu.take },
    [FETCH_FLOOR_ROW]: async (q, lang) => (await bare(request(q, lang))).text(),
    [SPEC_ONLY_ROW]: async (q, lang) => (await specOnly(request(q, lang))).text(),
    [SPEC_ONLY_SQL_ROW]: specSameSql,
  };
  const focused = focusRows();
  Object.assign(rows, await measureInterleaved(focus ? Object.fromEntries(Object.entries(timed).filter(([name]) => focused.has(name))) : timed));
  better.close();
  // Issue 52's criterion: the handler against FTS5's bm25 top 10 + snippet() over any informative word of the query
  // (filler out, corrections in), every type ranked.
  const floor: FloorReport = floorReport(
    QUERY_MIX,
    rows[HANDLER_ROW]!.perQuery!,
    rows[RANKED_FLOOR_ROW]!.perQuery!,
    QUERY_MIX.map(([q, lang]) => answered.get(`${lang}\u0000${q}`)!.path),
  );
  const paths = QUERY_MIX.map(([q, lang]) => answered.get(`${lang}\u0000${q}`)!.path);
  const pair = (handlerRow: string, floorRow: string) => {
    const { handler, floor: under, ofPercentiles } = floorReport(QUERY_MIX, rows[handlerRow]!.perQuery!, rows[floorRow]!.perQuery!, paths);
    return { handler, floor: under, ofPercentiles };
  };
  floor.beside = {
    [`handler ÷ ${ANSWERED_FLOOR_ROW}`]: pair(HANDLER_ROW, ANSWERED_FLOOR_ROW),
    [`${ALL_WORDS_FIRST_ROW} ÷ the answered floor`]: pair(ALL_WORDS_FIRST_ROW, ANSWERED_FLOOR_ROW),
    [`${FACETS_ROW} ÷ the handler without facets (target ≤ 2×)`]: pair(FACETS_ROW, HANDLER_ROW),
  };
  const breakdown = focus ? {} : sqlBreakdown(native, everyStatement);
  const slowest = focus ? undefined : { floor: slowestFloor(native, 'search_index') };

  if (withPeers) {
    const records = (await documents(n)).map(withoutWordBreaks);
    const mini = new MiniSearch<Record<string, unknown>>({
      fields: ['title', 'description', 'tags', 'content'],
      storeFields: ['url', 'type'],
      searchOptions: { boost: { title: 3, description: 2, tags: 2 }, prefix: true, fuzzy: 0.2 },
    });
    mini.addAll(records.map(({ sections: _, outline: _o, markdown: _m, ...d }, id) => ({ ...d, id })));
    rows['MiniSearch search()'] = await measure((q, lang) => mini.search(q, { filter: (r) => r.type === lang }).slice(0, 10));

    const orama = create({ schema: { title: 'string', description: 'string', tags: 'string', content: 'string', url: 'string', type: 'enum' } as const });
    await insertMultiple(orama, records.map(({ title, description, tags, content, url, type }) => ({ title, description, tags, content, url, type })));
    rows['Orama search()'] = await measure((q, lang) =>
      oramaSearch(orama, { term: q, where: { type: { eq: lang } }, properties: ['title', 'description', 'tags', 'content'], tolerance: 1, limit: 10 }),
    );

    const flex = new FlexSearch.Document({ document: { id: 'id', index: ['title', 'description', 'tags', 'content'], tag: ['type'], store: ['url'] } });
    records.forEach(({ sections: _, outline: _o, markdown: _m, ...d }, id) => flex.add({ ...d, id }));
    rows['FlexSearch search()'] = await measure((q, lang) => flex.search(q, { limit: 10, tag: { type: lang }, enrich: true }));
  }
  db.close();
  return { path, rows, floor, breakdown, slowest };
}

/**
 * Where the time of the handler's SQL goes: mean ms per query of the mix, each statement timed whole and with one part
 * left out (best of 3 each). A search is one statement (two with a correction), so its parts are told apart by what
 * leaving them out saves: the ranking is its common table expressions alone (every step, titles and widening
 * included, read up to the ranked rows); FTS5's `snippet()`, the sections sub-select and the typo candidates are each
 * left out of the whole statement; "page details" is the rest (the page's rows found again in FTS5, their columns).
 */
export function sqlBreakdown(native: Native, statements: { sql: string; params: SqlValue[] }[]): Record<string, number> {
  const time = (sql: string, params: SqlValue[]) => {
    const statement = native.prepare(sql);
    statement.all(...params);
    let best = Infinity;
    for (let i = 0; i < 3; i++) best = Math.min(best, cpuTimeSync(() => statement.all(...params)));
    return best;
  };
  const placeholders = (sql: string) => (sql.match(/\?/g) ?? []).length;
  const totals = { statement: 0, ranking: 0, 'page details': 0, 'snippet()': 0, sections: 0, 'typo candidates': 0 };
  let results = 0;
  for (const { sql, params } of statements) {
    const whole = time(sql, params);
    const head = sql.slice(0, sql.indexOf(PAGE_PART));
    if (!head) throw new Error('[bench] the search statement changed: update PAGE_PART');
    const ranking = time(`${head}\nSELECT count(*) FROM ranked`, params.slice(0, placeholders(head)));
    const snippets = whole - time(sql.replace(/snippet\(.*?\) AS snippet/s, 'NULL AS snippet'), params);
    const sections = whole - time(stripSections(sql), params);
    const lookups = sql.indexOf(CANDIDATES_PART);
    const candidates = lookups === -1 ? 0 : whole - time(sql.slice(0, lookups), params.slice(0, placeholders(sql.slice(0, lookups))));
    totals.statement += whole;
    totals.ranking += ranking;
    totals['snippet()'] += snippets;
    totals.sections += sections;
    totals['typo candidates'] += candidates;
    totals['page details'] += whole - ranking - snippets - sections - candidates;
    results += (native.prepare(sql).all(...params) as { kind: string }[]).filter((r) => r.kind === 'r').length;
  }
  const perQuery = Object.fromEntries(Object.entries(totals).map(([k, v]) => [k, v / QUERY_MIX.length]));
  return { ...perQuery, 'snippet() per result': results ? totals['snippet()'] / results : 0 };
}

/** Where the search statement's page of results starts, and where its typo candidates do (src/db/search-plan.ts). */
const PAGE_PART = "\nSELECT 'r' AS kind";
const CANDIDATES_PART = "\nUNION ALL\nSELECT 'c'";

/** The handler's latency row, and the row of the same statements replayed on the driver (what the handler adds to). */
export const HANDLER_ROW = 'site-search handler (Request → JSON Response)';
export const SAME_SQL_ROW = 'same SQL, run directly on node:sqlite';

/**
 * The bare ranking of the literal query: the least any FTS5 ranking of it can cost. On the index as built, so with its
 * prefix indexes (`PREFIX_LENGTHS`, src/db/schema.ts).
 */
export const FLOOR_ROW = 'FTS5 floor: bare ORDER BY bm25 LIMIT 10';

/** The SPEC.md match expression for `q`, as the floor rows search it (`''` when it has no term). */
export const floorMatch = (q: string) => toFtsQuery(segmentUnspaced(q.toLowerCase(), ' '));

export function bareFloor(native: Native, table: string, q: string) {
  const match = floorMatch(q);
  if (match) native.prepare(`SELECT rowid, bm25(${table}, 10, 5, 1, 3) AS bm FROM ${table} WHERE ${table} MATCH ? ORDER BY bm LIMIT 10`).all(match);
}

/** The query of the mix whose bare ranking takes longest (CPU, best of 3), and how many documents it matches. */
export function slowestFloor(native: Native, table: string): { query: string; ms: number; matches: number; documents: number } {
  let query = '';
  let worst = -1;
  for (const [q] of QUERY_MIX) {
    if (!floorMatch(q)) continue;
    let ms = Infinity;
    for (let i = 0; i < 3; i++) ms = Math.min(ms, cpuTimeSync(() => bareFloor(native, table, q)));
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

export function bareFetchHandler(native: Native, statementsOf: (q: string, lang: string) => { sql: string; params: SqlValue[] }[]) {
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
export const SECTIONS_SUBSELECT = new RegExp(`\\(SELECT sections FROM ${SECTIONS_TABLE} WHERE page = p\\.id\\)`);

/** A search statement without its sections sub-select (NULL instead). */
export function stripSections(sql: string): string {
  const stripped = sql.replace(SECTIONS_SUBSELECT, 'NULL');
  if (stripped === sql && sql.includes(SECTIONS_TABLE)) throw new Error('[bench] the search statement changed: update SECTIONS_SUBSELECT');
  return stripped;
}

/** `db` with the search statement's sections left out (a bench-only device: see SPEC_ONLY_ROW). */
export function withoutSections(db: SearchDatabase): SearchDatabase {
  return { prepare: (sql) => db.prepare(stripSections(sql)) };
}

/**
 * The database with each statement's run timed (CPU); `take()` returns the ms spent in statements since the last call.
 * On node:sqlite a statement runs synchronously inside `all()`, so that call's duration is the statement's.
 */
export function timingStatements(db: SearchDatabase): { db: SearchDatabase; take: () => number } {
  let spent = 0;
  const wrap = (statement: SearchStatement): SearchStatement => ({
    bind: (...values) => wrap(statement.bind(...values)),
    all: <Row>() => {
      const t = cpuMs();
      const answer = statement.all<Row>();
      spent += cpuMs() - t;
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
export async function replayAnswers(db: SearchDatabase, statements: { sql: string; params: SqlValue[] }[]): Promise<SearchDatabase> {
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

