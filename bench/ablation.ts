/**
 * What each signal of the ranking's second phase earns (issue 52): the labeled sets run with the whole ranking, with
 * phase 1 alone (FTS5's bm25 over the query's informative words), and with each signal removed in turn; MRR@10 per set
 * and per kind of query, and the process CPU time per query on the Astro set. `npm run bench:ablation` writes the
 * table into docs/ranking.md between its `ablation` markers; `-- --print` prints it only.
 *
 * Each variant runs in this process on one index per set (node:sqlite, reads in this thread), so CPU times compare
 * within the run.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '../adapters/node.js';
import { resolveConfig, type ResolvedConfig, type SearchDatabase } from '../src/index.js';
import { buildIndex, pushIndex } from '../src/indexer/index.js';
import { coverageRanking, coverageStatement, SIGNALS, type Signals } from '../src/ranking/coverage.js';
import type { Ranking } from '../src/ranking/types.js';
import { forgetKnownIndexes } from '../src/search/known-index.js';
import { normalizeSearchInput } from '../src/search/query.js';
import { runSearch } from '../src/search/search.js';
import { LABELED_SETS, LONG_QUESTION_LIMIT, score, setOptions, setQueries, summarize, type LabeledQuery, type LabeledSet } from './labeled-queries.js';
import { here } from './perf/measure.js';

/** A row of the table: the coverage ranking with some of its signals off. */
interface Variant {
  label: string;
  off: Partial<Signals>;
}

const PHASE_1_ALONE: Partial<Signals> = Object.fromEntries(Object.keys(SIGNALS).map((name) => [name, false]));

const VARIANTS: Variant[] = [
  { label: 'the ranking (both phases)', off: {} },
  { label: 'phase 1 alone (FTS5\'s bm25)', off: PHASE_1_ALONE },
  { label: 'without titles', off: { titles: false } },
  { label: 'without headings', off: { headings: false } },
  { label: 'without every word', off: { everyWord: false } },
  { label: 'without recency, boost and tiers', off: { recency: false, boost: false, tiers: false } },
];

/** A column of the table: some of a set's queries. */
interface Column {
  label: string;
  set: LabeledSet;
  queries: LabeledQuery[];
}

function columnsOf(set: LabeledSet): Column[] {
  const title = { astro: 'Astro', electron: 'Electron', trpc: 'tRPC' }[set.name] ?? set.name;
  const queries = setQueries(set);
  const kinds = [...new Set(queries.map((q) => q.kind))];
  // A set whose questions carry their kind (tRPC's: short, natural, assistant) is reported per kind.
  const columns: Column[] = set.longKinds
    ? kinds.map((kind) => ({ label: `${title} ${kind} (${queries.filter((q) => q.kind === kind).length})`, set, queries: queries.filter((q) => q.kind === kind) }))
    : [{ label: `${title} (${queries.length})`, set, queries }];
  if (set.long) {
    const long = setQueries(set, set.long);
    columns.push({ label: `${title} long (${long.length})`, set, queries: long });
  }
  return columns;
}

function rankingWithout(off: Partial<Signals>): Ranking {
  const signals = { ...SIGNALS, ...off };
  return { ...coverageRanking, statement: (query, scope, request) => coverageStatement(query, scope, request, signals) };
}

/** MRR@10 of `queries` under `ranking`, and the process CPU time it took per query, in ms. */
async function measure(config: ResolvedConfig, db: SearchDatabase, ranking: Ranking, queries: LabeledQuery[]) {
  forgetKnownIndexes();
  // The queries once untimed first: each variant is timed with the vocabulary in memory and its code compiled, as a
  // running server answers (else the first variant measured pays for the JIT and reads the vocabulary).
  for (const q of queries) await runSearch(config, db, normalizeSearchInput(config, { q: q.query, type: q.lang, limit: 10 }), { rankings: [ranking] });
  const scores = [];
  const started = process.cpuUsage();
  for (const q of queries) {
    const input = normalizeSearchInput(config, { q: q.query, type: q.lang, limit: 10 });
    const { results } = await runSearch(config, db, input, { rankings: [ranking] });
    scores.push(score(results.map((r) => r.url), q.targets));
  }
  const cpu = process.cpuUsage(started);
  return { mrr: summarize(scores).mrr10, cpuMs: (cpu.user + cpu.system) / 1000 / queries.length };
}

async function run(): Promise<string> {
  const sets = LABELED_SETS.filter((set) => existsSync(set.corpus));
  const skipped = LABELED_SETS.filter((set) => !existsSync(set.corpus)).map((set) => set.name);
  const dir = mkdtempSync(join(tmpdir(), 'site-search-ablation-'));
  const cells = new Map<string, string[]>(VARIANTS.map((v) => [v.label, []]));
  const columns: string[] = [];
  let cpuColumn: string | undefined;
  try {
    for (const set of sets) {
      // Long questions are answered as MCP's search answers them (maxQueryLength 500); the box's as the endpoint's.
      const config = resolveConfig({ ...setOptions(set), maxQueryLength: LONG_QUESTION_LIMIT });
      const path = join(dir, `${set.name}.db`);
      await pushIndex(config, { kind: 'sqlite', path }, (await buildIndex(config)).documents);
      const db = openSqlite(path, { threads: 0 });
      try {
        for (const column of columnsOf(set)) {
          columns.push(column.label);
          const timed = set.name === 'astro' && !column.label.includes('long');
          if (timed) cpuColumn = `process CPU per query, ${column.label}`;
          for (const variant of VARIANTS) {
            const { mrr, cpuMs } = await measure(config, db, rankingWithout(variant.off), column.queries);
            cells.get(variant.label)!.push(variant.off === VARIANTS[0]!.off ? `**${mrr.toFixed(3)}**` : mrr.toFixed(3));
            if (timed) cells.get(variant.label)!.push(`${cpuMs.toFixed(2)} ms`);
          }
          if (timed) columns.push(cpuColumn!);
        }
      } finally {
        db.close();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const header = `| | ${columns.join(' | ')} |\n|---|${columns.map(() => '---|').join('')}`;
  const rows = VARIANTS.map((v) => `| ${v.label} | ${cells.get(v.label)!.join(' | ')} |`);
  const note = skipped.length ? `\n\n(Not run: ${skipped.join(', ')}, whose corpus is not beside the repository.)` : '';
  return `${header}\n${rows.join('\n')}\n\n${new Date().toISOString().slice(0, 10)}, \`npm run bench:ablation\`.${note}`;
}

const table = await run();
if (process.argv.includes('--print')) {
  console.log(table);
} else {
  const page = join(here, '../docs/ranking.md');
  const text = readFileSync(page, 'utf8');
  const start = '<!-- ablation:start -->\n';
  const end = '\n<!-- ablation:end -->';
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error('[site-search] docs/ranking.md has no <!-- ablation:start --> … <!-- ablation:end --> markers to write the table between');
  writeFileSync(page, text.slice(0, from + start.length) + table + text.slice(to));
  console.log(table);
}
