/**
 * The worst case a request can ask for: a last word of one letter, which FTS5 would read as a prefix (every word
 * starting with it). Typed alone (`zzq a`) or left by punctuation FTS5's tokenizer splits at (`zzq .a`, `a.s`, `x-a`,
 * `svelte-k`), in unique variants, as an attacker would send past the cache. Each class is timed through the handler
 * beside the benchmark's query mix (the typical request), interleaved, so a slow minute of the machine tilts neither.
 * Part of `npm run bench` (a section of docs/benchmarks.md); on its own: `npx tsx bench/worst-case.ts 10000`.
 */
import { openSqlite } from '../adapters/node.js';
import { createSearchHandler } from '../src/index.js';
import { searchTerms, toFtsQuery } from '../src/search/query.js';
import { allTermsMatch } from '../src/ranking/expressions.js';
import { baseConfig } from './corpus.js';
import { writeLatencyIndex } from './perf/latency.js';
import { cpuTime as timed } from './perf/cpu.js';
import { QUERY_MIX, shuffled } from './perf/measure.js';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz'.split('');
/** Words that match nothing, and words of every page, before the letter: 26 × 4 unique queries a class. */
const NONSENSE = ['zzq', 'qxv', 'wvk', 'jjx'];
const WORDS = ['svelte', 'astro', 'config', 'deploy'];
const each = (firsts: string[], query: (first: string, letter: string) => string) => firsts.flatMap((f) => LETTERS.map((l) => query(f, l)));

/** Each worst-case class: what it is, an example, and its unique queries. */
export const WORST_CLASSES: { name: string; example: string; queries: string[] }[] = [
  { name: 'a one-letter last term', example: 'zzq a', queries: each(NONSENSE, (w, l) => `${w} ${l}`) },
  { name: 'a letter after punctuation', example: 'zzq .a', queries: each(NONSENSE, (w, l) => `${w} .${l}`) },
  { name: 'a letter after a dot', example: 'a.s', queries: each(['s', 'd', 't', 'n'], (m, l) => `${l}.${m}`) },
  { name: 'a letter after a hyphen', example: 'x-a', queries: each(['x', 'q', 'z', 'j'], (m, l) => `${m}-${l}`) },
  { name: 'a word and a letter', example: 'svelte-k', queries: each(WORDS, (w, l) => `${w}-${l}`) },
];

/** Rounds over every query: 104 queries a class, so the p99 of a class is read from 312 samples. */
export const ROUNDS = 3;

export interface WorstCase {
  /** The handler, cache off, on the query mix (process CPU ms). */
  typical: { p50: number; p99: number };
  classes: {
    name: string;
    example: string;
    queries: number;
    /** The handler, cache off (process CPU ms). */
    handler: { p50: number; p99: number };
    /**
     * The strict step's ranking alone: the documented expression (`toFtsQuery`, the last word by prefix, as the
     * handler searched it before) and the handler's today (a one-letter last word as a whole word).
     */
    prefixRanking: { p50: number; p99: number };
    wordRanking: { p50: number; p99: number };
  }[];
}

function percentile(samples: number[], p: number): number {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
}
const stats = (ms: number[]) => ({ p50: percentile(ms, 0.5), p99: percentile(ms, 0.99) });


/** Measures the worst case on the index at `path` (built by the latency benchmark). */
export async function worstCase(path: string): Promise<WorstCase> {
  // In this thread: the handler's own CPU time (the worker pool's cost is in bench/starvation).
  const db = openSqlite(path, { threads: 0 });
  try {
    const handler = createSearchHandler(baseConfig, { db, cache: false });
    const ask = async (q: string, type = '') =>
      (await handler(new Request(`http://bench/api/search?q=${encodeURIComponent(q)}${type ? `&type=${type}` : ''}`))).text();
    const ranking = (expression: string) =>
      db.prepare('SELECT rowid, bm25(search_index, 10, 5, 1, 3) AS bm FROM search_index WHERE search_index MATCH ? ORDER BY bm LIMIT 10').bind(expression).all();
    // Every request of a round in one shuffled order: the typical ones and each class's, side by side in time.
    const requests = [
      ...QUERY_MIX.map(([q, type]) => ({ key: 'typical', q, type })),
      ...WORST_CLASSES.flatMap(({ name, queries }) => queries.map((q) => ({ key: name, q, type: '' }))),
    ];
    for (const { q, type } of requests.slice(0, 40)) await ask(q, type); // warm-up
    const samples = new Map<string, number[]>();
    const sample = (key: string, ms: number) => samples.set(key, [...(samples.get(key) ?? []), ms]);
    for (let round = 0; round < ROUNDS; round++) {
      for (const { key, q, type } of shuffled(requests, round + 1)) sample(key, await timed(() => ask(q, type)));
    }
    const classes = [];
    for (const { name, example, queries } of WORST_CLASSES) {
      const before: number[] = [];
      const now: number[] = [];
      for (const q of queries) {
        before.push(await timed(() => ranking(toFtsQuery(q, baseConfig.maxTerms))));
        now.push(await timed(() => ranking(allTermsMatch(searchTerms(q, baseConfig.maxTerms)))));
      }
      classes.push({ name, example, queries: queries.length, handler: stats(samples.get(name)!), prefixRanking: stats(before), wordRanking: stats(now) });
    }
    return { typical: stats(samples.get('typical')!), classes };
  } finally {
    db.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { path } = await writeLatencyIndex(Number(process.argv[2] ?? 10_000));
  console.log(JSON.stringify(await worstCase(path), null, 2));
}
