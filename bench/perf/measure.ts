/** How the benchmark times things: the query mix, rounds, percentiles and the interleaved measurement of several rows. */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuMs, warnIfLoaded } from './cpu.js';
import { MIX } from './query-mix.js';

/** The bench folder (results are written under it). */
export const here = join(dirname(fileURLToPath(import.meta.url)), '..');
export const work = join(here, 'results', 'perf');
/**
 * Latency rounds: this machine's speed drifts by a tenth or more within minutes, and with 5 rounds the medians moved
 * about as much between runs.
 */
export const ROUNDS = 11;

/** The query mix (bench/perf/query-mix.ts, by kind), as `[query, language]`. */
export const QUERY_MIX: [string, string][] = MIX.map(({ q, lang }) => [q, lang]);

export type Stats = { p50: number; p95: number; p99: number };
/**
 * Median over rounds of each percentile, with the min–max over rounds; `slowest`: the queries with the highest median
 * over rounds, slowest first (what sets the tail).
 */
export type Measured = Record<keyof Stats, Spread> & {
  slowest?: { query: string; ms: number }[];
  /** Each query's median over rounds, in the order of {@link QUERY_MIX}: what per-query ratios are taken from. */
  perQuery?: number[];
};
/** A median with the min–max around it. */
export type Spread = { median: number; min: number; max: number };

export function spread(values: number[]): Spread {
  const s = [...values].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)]!, min: s[0]!, max: s[s.length - 1]! };
}

export function percentiles(samples: number[]): Stats {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99) };
}

export type QueryFn = (q: string, lang: string) => Promise<unknown> | unknown;
/**
 * A query step timed on its own, after an untimed step that sets the scene (e.g. leaves the CPU caches as it would).
 * `excluded`, when given, returns the ms of the step that its sample leaves out (read once after each run).
 */
export type Timed = { before?: QueryFn; run: QueryFn; excluded?: () => number };

/**
 * Runs `fn` over the query mix ROUNDS times (after one warm-up) and summarises the per-round percentiles. Every sample
 * is the process CPU time of one query (bench/perf/cpu.ts), in ms.
 */
export async function measure(fn: QueryFn): Promise<Measured> {
  return (await measureInterleaved({ fn })).fn!;
}

/**
 * Like {@link measure} for several functions at once, taken query by query: each query of a round runs through every
 * function before the next query, in a shuffled order (a fixed seed per query and round), so each function follows
 * each other one equally often and none gains from always finding the CPU caches warm from the same query. The
 * samples of a ratio between them are then milliseconds apart, and the machine being slower for a while (it drifts by
 * a third within minutes) tilts neither side.
 */
export async function measureInterleaved(fns: Record<string, QueryFn | Timed>): Promise<Record<string, Measured>> {
  const steps = Object.entries(fns).map(([name, fn]) => ({ name, ...(typeof fn === 'function' ? { run: fn } : fn) }));
  for (const { before, run } of steps) {
    for (const [q, lang] of QUERY_MIX) {
      await before?.(q, lang);
      await run(q, lang);
    }
  }
  const rounds: Record<string, Stats[]> = Object.fromEntries(steps.map(({ name }) => [name, []]));
  // Each query's samples over rounds, per function.
  const perQuery: Record<string, number[][]> = Object.fromEntries(steps.map(({ name }) => [name, QUERY_MIX.map(() => [])]));
  for (let r = 0; r < ROUNDS; r++) {
    warnIfLoaded('the latency rounds');
    const samples: Record<string, number[]> = Object.fromEntries(steps.map(({ name }) => [name, []]));
    for (const [i, [q, lang]] of QUERY_MIX.entries()) {
      for (const { name, before, run, excluded } of shuffled(steps, r * QUERY_MIX.length + i)) {
        await before?.(q, lang);
        excluded?.(); // starts the count afresh, so only this run's excluded time is taken off below
        const t = cpuMs();
        await run(q, lang);
        const ms = cpuMs() - t;
        const sample = ms - (excluded?.() ?? 0);
        samples[name]!.push(sample);
        perQuery[name]![i]!.push(sample);
      }
    }
    for (const { name } of steps) rounds[name]!.push(percentiles(samples[name]!));
  }
  return Object.fromEntries(
    Object.entries(rounds).map(([name, stats]) => [
      name,
      { ...summarise(stats), slowest: slowestQueries(perQuery[name]!), perQuery: perQuery[name]!.map((s) => spread(s).median) },
    ]),
  );
}

/** The three queries of the mix with the highest median over rounds (`[lang] query`). */
function slowestQueries(samples: number[][]): { query: string; ms: number }[] {
  return samples
    .map((s, i) => ({ query: `${QUERY_MIX[i]![0]} [${QUERY_MIX[i]![1]}]`, ms: spread(s).median }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 3);
}

/** A copy of `items` in an order fixed by `seed` (Fisher–Yates over a small linear congruential generator). */
export function shuffled<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let state = (seed * 2654435761 + 1) >>> 0;
  for (let i = out.length - 1; i > 0; i--) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

export function summarise(rounds: Stats[]): Measured {
  return { p50: spread(rounds.map((r) => r.p50)), p95: spread(rounds.map((r) => r.p95)), p99: spread(rounds.map((r) => r.p99)) };
}
