/**
 * Relevance benchmark: the labeled astro-docs queries through site-search and its peers, in one run, on the same
 * records. `npm run bench:relevance` (figures in docs/benchmarks.md).
 *
 * Every engine gets the same documents (title, description, tags, extracted body text, URL) and answers the top 10.
 * A hit is the query's `target` page or any of its `also_ok` pages.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSqlite, type SqliteDatabase } from '../adapters/node.js';
import { resolveConfig, searchIndex, type ResolvedConfig } from '../src/index.js';
import { buildIndex, pushIndex, type IndexDocument } from '../src/indexer/index.js';
import { corpusOptions, LABELED_SETS, loadQueries, score, summarize, type LabeledQuery, type LabeledSet, type Score } from './labeled-queries.js';
import { withoutWordBreaks } from './corpus.js';
import { peers, type Engine } from './peers.js';
import { searchTerms } from '../src/search/query.js';
import { TABLE } from '../src/db/schema.js';

const here = dirname(fileURLToPath(import.meta.url));

/**
 * Runs every engine over one labeled set's queries (Astro's by default); returns the report (also written to
 * bench/results/relevance-NAME.json).
 */
export async function runRelevance(set: LabeledSet = LABELED_SETS[0]!): Promise<Record<string, RelevanceReport>> {
  const queries = loadQueries(set.queries, set.corpus);
  const config = resolveConfig(corpusOptions(set.corpus));
  const built = await buildIndex(config);
  const documents: IndexDocument[] = built.documents;
  console.log(`${set.name}: ${documents.length} documents, ${queries.length} labeled queries\n`);

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
  const report: Record<string, RelevanceReport> = {};
  for (const engine of engines) {
    const started = performance.now();
    // Peers get the text without site-search's own word breaks (an indexing technique of ours, not content).
    await engine.index(others.includes(engine) ? documents.map(withoutWordBreaks) : documents);
    const indexMs = performance.now() - started;
    const rows: { q: LabeledQuery; s: Score; urls: string[] }[] = [];
    for (const q of queries) {
      const urls = await engine.search(q.query, q.lang);
      rows.push({ q, s: score(urls, q.targets), urls });
    }
    const by = (key: 'lang' | 'kind') =>
      Object.fromEntries([...new Set(rows.map((r) => r.q[key]))].map((v) => [v, summarize(rows.filter((r) => r.q[key] === v).map((r) => r.s))]));
    report[engine.name] = {
      overall: summarize(rows.map((r) => r.s)),
      byLang: by('lang'),
      byKind: by('kind'),
      indexMs: Math.round(indexMs),
      misses: rows.filter((r) => r.s.at10 === 0).map((r) => `${r.q.lang}/${r.q.kind}: ${r.q.query}`),
    };
    await engine.close?.();
  }
  writeFileSync(join(here, 'results', `relevance-${set.name}.json`), JSON.stringify(report, null, 2));
  return report;
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
  return sqliteEngine(config, name, async (db, query, lang) =>
    (await searchIndex(config, { db, q: query, type: lang, limit: 10 })).map((r) => r.url),
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
function sqliteEngine(config: ResolvedConfig, name: string, search: (db: SqliteDatabase, query: string, lang: string) => Promise<string[]>): Engine {
  let db: SqliteDatabase | undefined;
  return {
    name,
    async index(documents) {
      const path = join(here, 'results', `relevance-${name.replace(/\W+/g, '-')}.db`);
      rmSync(path, { force: true });
      await pushIndex(config, { kind: 'sqlite', path }, documents);
      db = openSqlite(path);
    },
    search: (query, lang) => search(db!, query, lang),
    close: () => db?.close(),
  };
}

function print(report: Record<string, RelevanceReport>) {
  const names = Object.keys(report);
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const line = (label: string, get: (r: any) => any) =>
    console.log(`${label.padEnd(22)}${names.map((n) => String(get(report[n])).padStart(14)).join('')}`);
  console.log(`${''.padEnd(22)}${names.map((n) => n.padStart(14)).join('')}`);
  line('MRR@10', (r) => r.overall.mrr10.toFixed(3));
  line('success@1', (r) => pct(r.overall.success1));
  line('success@10', (r) => pct(r.overall.success10));
  line('zero results', (r) => pct(r.overall.zeroResults));
  line('index time (ms)', (r) => r.indexMs);
  for (const key of ['byKind', 'byLang'] as const) {
    const groups = Object.keys((report[names[0]!] as any)[key]);
    for (const g of groups) line(`MRR@10 ${g}`, (r) => r[key][g].mrr10.toFixed(3));
  }
}

// `npm run bench:relevance [-- astro|electron …]`: every set by default.
if (import.meta.url === `file://${process.argv[1]}`) {
  const asked = process.argv.slice(2);
  for (const set of LABELED_SETS.filter((s) => asked.length === 0 || asked.includes(s.name))) {
    print(await runRelevance(set));
    console.log(`\nDetails (misses per engine): bench/results/relevance-${set.name}.json\n`);
  }
}
