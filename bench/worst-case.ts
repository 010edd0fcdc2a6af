/**
 * The worst case a request can ask for: a one-letter last term (`zzq a`), which the any-term step used to search as the
 * prefix `"a"*` (every word starting with "a"). Unique variants, as an attacker would send past the cache. Part of
 * `npm run bench` (a section of docs/benchmarks.md).
 */
import { openSqlite } from '../adapters/node.js';
import { createSearchHandler } from '../src/index.js';
import { baseConfig } from './corpus.js';

/** Letters for the last term, and misspelt words that match nothing for the first: 26 × 4 unique queries. */
const LETTERS = 'abcdefghijklmnopqrstuvwxyz'.split('');
const NONSENSE = ['zzq', 'qxv', 'wvk', 'jjx'];
export const WORST_QUERIES = NONSENSE.flatMap((w) => LETTERS.map((l) => `${w} ${l}`));

export interface WorstCase {
  queries: number;
  /** The handler, cache off, on the worst-case queries (ms). */
  handler: { p50: number; p99: number };
  /** The handler on an ordinary query of the mix for comparison (`component`, ms). */
  typical: { p50: number };
  /** The any-term ranking alone, the last letter as a prefix (what the handler ran before) and as a whole word (now). */
  prefixRanking: { p50: number; p99: number };
  wordRanking: { p50: number; p99: number };
}

function percentile(samples: number[], p: number): number {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
}

async function timeEach(queries: string[], run: (q: string) => Promise<unknown> | unknown): Promise<number[]> {
  const ms: number[] = [];
  for (const q of queries) {
    const t = performance.now();
    await run(q);
    ms.push(performance.now() - t);
  }
  return ms;
}

/** Measures the worst case on the index at `path` (built by the latency benchmark). */
export async function worstCase(path: string): Promise<WorstCase> {
  const db = openSqlite(path);
  try {
    const handler = createSearchHandler(baseConfig, { db, cache: false });
    const ask = async (q: string) => (await handler(new Request(`http://bench/api/search?q=${encodeURIComponent(q)}`))).text();
    const ranking = (expression: (word: string, letter: string) => string) => (q: string) => {
      const [word, letter] = q.split(' ') as [string, string];
      return db
        .prepare('SELECT rowid, bm25(search_index, 10, 5, 1, 3) AS bm FROM search_index WHERE search_index MATCH ? ORDER BY bm LIMIT 10')
        .bind(expression(word, letter))
        .all();
    };
    await timeEach(WORST_QUERIES.slice(0, 8), ask); // warm-up
    const handlerMs = await timeEach(WORST_QUERIES, ask);
    const typical = await timeEach(Array.from({ length: 25 }, () => 'component'), ask);
    const prefix = await timeEach(WORST_QUERIES, ranking((w, l) => `"${w}" OR "${l}"*`));
    const word = await timeEach(WORST_QUERIES, ranking((w, l) => `"${w}" OR "${l}"`));
    const stats = (ms: number[]) => ({ p50: percentile(ms, 0.5), p99: percentile(ms, 0.99) });
    return {
      queries: WORST_QUERIES.length,
      handler: stats(handlerMs),
      typical: { p50: percentile(typical, 0.5) },
      prefixRanking: stats(prefix),
      wordRanking: stats(word),
    };
  } finally {
    db.close();
  }
}
