/**
 * Relevance benchmark: the labeled astro-docs queries through site-search and its peers, in one run, on the same
 * records. `npm run bench:relevance` (figures in docs/benchmarks.md).
 *
 * Every engine gets the same documents (title, description, tags, extracted body text, URL) and answers the top 10.
 * A hit is the query's `target` page or any of its `also_ok` pages. A set's long assistant-style questions run on the
 * same index and are reported apart, so they leave the set's own figures as they were; a set whose questions include
 * a long kind (tRPC's `assistant`) reports it per kind with the others, site-search given the long limit for it.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSqlite, type SqliteDatabase } from '../adapters/node.js';
import { resolveConfig, searchIndex, type ResolvedConfig } from '../src/index.js';
import { buildIndex, pushIndex, type IndexDocument } from '../src/indexer/index.js';
import { LABELED_SETS, LONG_QUESTION_LIMIT, score, setOptions, setQueries, summarize, type LabeledQuery, type LabeledSet, type Score } from './labeled-queries.js';
import { withoutWordBreaks } from './corpus.js';
import { peers, type Engine, type QueryLimits } from './peers.js';
import { searchTerms } from '../src/search/query.js';
import { TABLE } from '../src/db/schema.js';

const here = dirname(fileURLToPath(import.meta.url));

/** One labeled set's figures per engine: its questions, and its long questions when it has them. */
export interface SetRelevance {
  questions: Record<string, RelevanceReport>;
  /** The long questions, site-search accepting up to LONG_QUESTION_LIMIT characters for them. */
  long?: Record<string, RelevanceReport>;
}

/**
 * Runs every engine over one labeled set's queries (Astro's by default), then over its long questions on the same
 * index; returns the reports (also written to bench/results/relevance-NAME.json and relevance-NAME-long.json).
 */
export async function runRelevance(set: LabeledSet = LABELED_SETS[0]!): Promise<SetRelevance> {
  const queries = setQueries(set);
  const longQuestions = set.long ? setQueries(set, set.long) : [];
  const config = resolveConfig(setOptions(set));
  const built = await buildIndex(config);
  const documents: IndexDocument[] = built.documents;
  const withLong = longQuestions.length ? ` and ${longQuestions.length} long questions` : '';
  console.log(`${set.name}: ${documents.length} documents, ${queries.length} labeled queries${withLong}\n`);

  mkdirSync(join(here, 'results'), { recursive: true });
  const others = peers();
  const engines: Engine[] = [
    siteSearchEngine(config),
    siteSearchEngine(resolveConfig({ ...config, ranking: 'fts5' }), 'ranking: fts5'),
    // What searching past maxContentLength (issue 23, cause 7) changes: the same index without the text past the cut.
    withDocuments(siteSearchEngine(config, 'no deep text'), (d) => ({ ...d, more: '' })),
    siteSearchEngine(resolveConfig({ ...config, widen: false, ranking: 'fts5' }), 'SPEC.md only'),
    fts5AnyTerm(config),
    ...others,
  ];
  // A set's own long kinds (tRPC's `assistant`) stay among its questions, reported per kind, with the long limit.
  const longKinds = new Set(set.longKinds ?? []);
  const report: Record<string, RelevanceReport> = {};
  const longReport: Record<string, RelevanceReport> = {};
  for (const engine of engines) {
    const started = performance.now();
    // Peers get the text without site-search's own word breaks (an indexing technique of ours, not content).
    await engine.index(others.includes(engine) ? documents.map(withoutWordBreaks) : documents);
    const indexMs = Math.round(performance.now() - started);
    report[engine.name] = { ...(await ask(engine, queries, (q) => (longKinds.has(q.kind) ? LONG_LIMITS : undefined))), indexMs };
    if (longQuestions.length) longReport[engine.name] = { ...(await ask(engine, longQuestions, () => LONG_LIMITS)), indexMs };
    await engine.close?.();
  }
  writeFileSync(join(here, 'results', `relevance-${set.name}.json`), JSON.stringify(report, null, 2));
  if (!longQuestions.length) return { questions: report };
  writeFileSync(join(here, 'results', `relevance-${set.name}-long.json`), JSON.stringify(longReport, null, 2));
  return { questions: report, long: longReport };
}

/** What site-search is given for a long question: the MCP limit of issue 53 instead of the endpoint's 100. */
const LONG_LIMITS: QueryLimits = { maxQueryLength: LONG_QUESTION_LIMIT };

/** One engine's answers to labeled queries, scored; `limits` says which queries get raised bounds. */
async function ask(engine: Engine, queries: LabeledQuery[], limits: (q: LabeledQuery) => QueryLimits | undefined): Promise<Omit<RelevanceReport, 'indexMs'>> {
  const rows: { q: LabeledQuery; s: Score; urls: string[] }[] = [];
  for (const q of queries) {
    const urls = await engine.search(q.query, q.lang, limits(q));
    rows.push({ q, s: score(urls, q.targets), urls });
  }
  const by = (key: 'lang' | 'kind') =>
    Object.fromEntries([...new Set(rows.map((r) => r.q[key]))].map((v) => [v, summarize(rows.filter((r) => r.q[key] === v).map((r) => r.s))]));
  return {
    overall: summarize(rows.map((r) => r.s)),
    byLang: by('lang'),
    byKind: by('kind'),
    misses: rows.filter((r) => r.s.at10 === 0).map((r) => `${r.q.lang}/${r.q.kind}: ${r.q.query}`),
  };
}

/** One engine's figures. */
export interface RelevanceReport {
  overall: ReturnType<typeof summarize>;
  byLang: Record<string, ReturnType<typeof summarize>>;
  byKind: Record<string, ReturnType<typeof summarize>>;
  indexMs: number;
  misses: string[];
}

function siteSearchEngine(config: ResolvedConfig, name = 'site-search'): Engine {
  return sqliteEngine(config, name, async (db, query, lang, limits) =>
    (await searchIndex(limits ? resolveConfig({ ...config, ...limits }) : config, { db, q: query, type: lang, limit: 10 })).map((r) => r.url),
  );
}

/**
 * The plain FTS5 baseline: any of the query's words (each quoted, the last by prefix), ordered by bm25 with the same
 * column weights, on the same index. What a hand-written FTS5 search box does; no widening, correction or sections.
 */
function fts5AnyTerm(config: ResolvedConfig): Engine {
  const { title, description, content, tags } = config.weights;
  return sqliteEngine(config, 'FTS5-OR', async (db, query, lang) => {
    const terms = searchTerms(query.toLowerCase(), config.maxTerms);
    if (terms.length === 0) return [];
    const match = [...terms.slice(0, -1).map((t) => `"${t}"`), `"${terms.at(-1)}"*`].join(' OR ');
    const { results } = await db
      .prepare(`SELECT url FROM ${TABLE} WHERE ${TABLE} MATCH ? AND type = ? ORDER BY bm25(${TABLE}, ${title}, ${description}, ${content}, ${tags}) LIMIT 10`)
      .bind(match, lang)
      .all<{ url: string }>();
    return results.map((r) => r.url);
  });
}

/** The same engine, indexing each document as `change` makes it. */
function withDocuments(engine: Engine, change: (d: IndexDocument) => IndexDocument): Engine {
  return { ...engine, index: (documents) => engine.index(documents.map(change)) };
}

/** An engine over a site-search index written by the indexer to its own SQLite file. */
function sqliteEngine(
  config: ResolvedConfig,
  name: string,
  search: (db: SqliteDatabase, query: string, lang: string, limits?: QueryLimits) => Promise<string[]>,
): Engine {
  let db: SqliteDatabase | undefined;
  return {
    name,
    async index(documents) {
      const path = join(here, 'results', `relevance-${name.replace(/\W+/g, '-')}.db`);
      rmSync(path, { force: true });
      await pushIndex(config, { kind: 'sqlite', path }, documents);
      db = openSqlite(path);
    },
    search: (query, lang, limits) => search(db!, query, lang, limits),
    close: () => db?.close(),
  };
}

/** Wide enough for the longest row label, "electron long success@10". */
const LABEL_WIDTH = 26;

function print(set: LabeledSet, { questions: report, long }: SetRelevance) {
  const names = Object.keys(report);
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const line = (label: string, get: (r: any) => any) =>
    console.log(`${label.padEnd(LABEL_WIDTH)}${names.map((n) => String(get(report[n])).padStart(14)).join('')}`);
  console.log(`${''.padEnd(LABEL_WIDTH)}${names.map((n) => n.padStart(14)).join('')}`);
  line('MRR@10', (r) => r.overall.mrr10.toFixed(3));
  line('success@1', (r) => pct(r.overall.success1));
  line('success@10', (r) => pct(r.overall.success10));
  line('zero results', (r) => pct(r.overall.zeroResults));
  line('index time (ms)', (r) => r.indexMs);
  for (const key of ['byKind', 'byLang'] as const) {
    const groups = Object.keys((report[names[0]!] as any)[key]);
    for (const g of groups) line(`MRR@10 ${g}`, (r) => r[key][g].mrr10.toFixed(3));
  }
  if (set.longKinds?.length) {
    console.log(
      `\n${set.longKinds.map((k) => `"${k}"`).join(', ')}: long assistant-style questions; site-search answers them through searchIndex ` +
        `with maxQueryLength ${LONG_QUESTION_LIMIT} (the MCP limit of issue 53), the other kinds with the default; the peers get the same text.`,
    );
  }
  if (!long) return;
  // Rows of their own: the figures above are the set's questions alone, as before the long ones were added.
  const longLine = (label: string, get: (r: RelevanceReport) => string) =>
    console.log(`${`${set.name} long ${label}`.padEnd(LABEL_WIDTH)}${names.map((n) => get(long[n]!).padStart(14)).join('')}`);
  longLine('MRR@10', (r) => r.overall.mrr10.toFixed(3));
  longLine('success@1', (r) => pct(r.overall.success1));
  longLine('success@10', (r) => pct(r.overall.success10));
  longLine('zero', (r) => pct(r.overall.zeroResults));
  const { n } = long[names[0]!]!.overall;
  console.log(
    `\n"${set.name} long": ${n} long assistant-style questions (${set.long!.replace(/.*\/test\//, 'test/')}), not in the figures above. ` +
      `site-search answers them through searchIndex with maxQueryLength ${LONG_QUESTION_LIMIT} (the MCP limit of issue 53; ` +
      `the endpoint's default of 100 refuses most); the peers get the same text.`,
  );
}

// `npm run bench:relevance [-- astro|electron|trpc …]`: every set by default.
if (import.meta.url === `file://${process.argv[1]}`) {
  const asked = process.argv.slice(2);
  for (const set of LABELED_SETS.filter((s) => asked.length === 0 || asked.includes(s.name))) {
    if (!existsSync(set.corpus)) {
      console.log(`${set.name}: skipped, with its long questions: its corpus ${set.corpus} is absent (it lives beside the repository, in ../shared).\n`);
      continue;
    }
    const run = await runRelevance(set);
    print(set, run);
    const longDetails = run.long ? ` and relevance-${set.name}-long.json` : '';
    console.log(`\nDetails (misses per engine): bench/results/relevance-${set.name}.json${longDetails}\n`);
  }
}
