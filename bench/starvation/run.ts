/**
 * `npm run bench:starvation` (and a section of `npm run bench`): can two connections starve every other reader of a
 * Node server? At 10,000 documents, node:http through `site-search/node` (the built package, in a process of its own),
 * a reader asks the query mix one request at a time, each uncached and then again (a cache hit), alone and beside two
 * attacking connections (autocannon, a third process) that send common words with a new `offset` and `limit` each time,
 * without and with `facets=type,tags`. Once with the statements in the server's thread (`threads: 0`, as before) and
 * once in its worker pool (the default). The reader comes from 127.0.0.2, the attackers from 127.0.0.1, so the pool
 * sees two clients, as it would on a network.
 *
 * Wall time, from the reader's side: the one figure a reader feels, and the one that queueing behind someone else's
 * statement shows in (CPU time would not). Compare figures within one run: the machine is shared.
 */
import { Agent, get } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { baseConfig } from '../corpus.js';
import { writeLatencyIndex } from '../perf/latency.js';
import { QUERY_MIX } from '../perf/measure.js';
import { start, stop } from './processes.js';
import { defaultPoolSize } from '../../src/db/sqlite-pool.js';
import { attackCpu, type RequestCpu } from './cpu.js';

const here = dirname(fileURLToPath(import.meta.url));
const AUTOCANNON_ROOT = join(here, '..', '..', 'node_modules');
export const STARVATION_DOCUMENTS = 10_000;
/**
 * Rounds: in each, every setting and phase asks the query mix once, with the round's own `limit` (new to the cache).
 * Interleaved, so that a machine whose load drifts during the run (a shared one) weighs on every row alike.
 */
const ROUNDS = [10, 9, 11];

export type Phase = 'alone' | 'beside two attackers' | 'beside two attackers, facets=type,tags';
const PHASES: { phase: Phase; attack?: '0' | '1' }[] = [
  { phase: 'alone' },
  { phase: 'beside two attackers', attack: '0' },
  { phase: 'beside two attackers, facets=type,tags', attack: '1' },
];

/** Percentiles of a reader's wall times, ms. */
export interface ReaderFigures {
  uncached: { p50: number; p90: number };
  cached: { p50: number; p90: number; max: number };
}
export interface StarvationFigures {
  documents: number;
  threads: number;
  modes: { name: string; threads: number; phases: Record<Phase, ReaderFigures> }[];
  cpu: RequestCpu[];
}

const pct = (values: number[], p: number) => {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
};

/** One GET from 127.0.0.2 over a kept-alive connection; its wall time in ms and the server's X-Search-Cache. */
function timedGet(agent: Agent, port: number, path: string): Promise<{ ms: number; cache: string }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path, agent, localAddress: '127.0.0.2' }, (res) => {
      res.resume();
      res.on('end', () => {
        if (res.statusCode !== 200) reject(new Error(`[bench] ${path}: ${res.statusCode}`));
        else resolve({ ms: performance.now() - started, cache: String(res.headers['x-search-cache']) });
      });
    }).on('error', reject);
  });
}

/** The reader's figures for one phase, on a fresh server (an empty cache). */
async function readerPhase(indexPath: string, threads: number, attack: '0' | '1' | undefined, limit: number): Promise<{ uncached: number[]; cached: number[] }> {
  const server = await start([join(here, 'server.mjs'), indexPath, String(threads), JSON.stringify(baseConfig)]);
  const port = (JSON.parse(server.line) as { port: number }).port;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const attacker = attack ? await start([join(here, 'attack.cjs'), `http://127.0.0.1:${port}`, attack], AUTOCANNON_ROOT) : undefined;
  try {
    // Warm-up: the statement caches, the typo vocabulary, the JIT (requests outside the measured set).
    for (const [q, lang] of QUERY_MIX.slice(0, 20)) await timedGet(agent, port, `/api/search?q=${encodeURIComponent(q)}&type=${lang}&limit=5`);
    if (attacker) await new Promise((r) => setTimeout(r, 1000));
    const uncached: number[] = [];
    const cached: number[] = [];
    {
      for (const [q, lang] of QUERY_MIX) {
        const path = `/api/search?q=${encodeURIComponent(q)}&type=${lang}&limit=${limit}`;
        const first = await timedGet(agent, port, path);
        const again = await timedGet(agent, port, path);
        if (first.cache !== 'MISS' || again.cache !== 'HIT') throw new Error(`[bench] ${path}: expected a miss then a hit, got ${first.cache}, ${again.cache}`);
        uncached.push(first.ms);
        cached.push(again.ms);
      }
    }
    return { uncached, cached };
  } finally {
    agent.destroy();
    if (attacker) await stop(attacker.child);
    await stop(server.child);
  }
}

/** Every phase, in-process and through the pool, on the 10,000-document latency index. */
export async function runStarvation(): Promise<StarvationFigures> {
  const { path } = await writeLatencyIndex(STARVATION_DOCUMENTS);
  const threads = defaultPoolSize();
  const modes: StarvationFigures['modes'] = [];
  // Two threads beside the default: as many workers as attacking connections (docs/decisions.md, "How many threads").
  const runs: [string, number][] = [['in the server thread (threads: 0, before)', 0]];
  if (threads !== 2) runs.push(['worker pool, threads: 2', 2]);
  runs.push([`worker pool (default, threads: ${threads})`, threads]);
  const samples = new Map<string, { uncached: number[]; cached: number[] }>();
  for (const limit of ROUNDS) {
    for (const [name, n] of runs) {
      for (const { phase, attack } of PHASES) {
        console.error(`[bench] starvation: limit ${limit}, ${name}, reader ${phase}…`);
        const got = await readerPhase(path, n, attack, limit);
        const key = `${name}\u0000${phase}`;
        const all = samples.get(key) ?? { uncached: [], cached: [] };
        samples.set(key, { uncached: [...all.uncached, ...got.uncached], cached: [...all.cached, ...got.cached] });
        console.error(`[bench] starvation: uncached p50 ${pct(got.uncached, 0.5).toFixed(1)} ms, cached p50 ${pct(got.cached, 0.5).toFixed(1)} ms`);
      }
    }
  }
  for (const [name, n] of runs) {
    const phases = {} as Record<Phase, ReaderFigures>;
    for (const { phase } of PHASES) {
      const { uncached, cached } = samples.get(`${name}\u0000${phase}`)!;
      phases[phase] = {
        uncached: { p50: pct(uncached, 0.5), p90: pct(uncached, 0.9) },
        cached: { p50: pct(cached, 0.5), p90: pct(cached, 0.9), max: Math.max(...cached) },
      };
    }
    modes.push({ name, threads: n, phases });
  }
  console.error('[bench] starvation: CPU time of an attacking request…');
  const cpu = [...(await attackCpu(path, 0)), ...(await attackCpu(path, threads))];
  return { documents: STARVATION_DOCUMENTS, threads, modes, cpu };
}

/** The section of docs/benchmarks.md. */
export function starvationSection(f: StarvationFigures): string {
  const ms = (x: number) => `${x.toFixed(1)} ms`;
  const rows = f.modes.flatMap(({ name, phases }) => {
    const alone = phases.alone.uncached.p50;
    return (Object.entries(phases) as [Phase, ReaderFigures][]).map(
      ([phase, r]) =>
        `| ${name} | ${phase} | ${ms(r.uncached.p50)} / ${ms(r.uncached.p90)} | ${(r.uncached.p50 / alone).toFixed(1)}× | ${ms(r.cached.p50)} / ${ms(r.cached.p90)} / ${ms(r.cached.max)} |`,
    );
  });
  return `## Two connections against every other reader (Node)

${f.documents.toLocaleString('en')} documents, node:http through
\`site-search/node\` in a server process of its own, the default in-memory cache. A reader (from 127.0.0.2) asks the
query mix ${ROUNDS.length} times (every setting and phase in turn, each round with its own \`limit\`, so drift in the
machine's load weighs on every row alike), one request at a time, each new to the cache and then again (a cache hit); two
attacking connections (autocannon, from 127.0.0.1) send common words with a new \`offset\` and \`limit\` each time, each
connection its next request as soon as the last is answered. Wall time as the reader sees it: the one place wall time is
the measure, since waiting behind someone else's statement is what it shows. Compare rows within this run. The second
table is what one attacking request costs (CPU time, through the handler in this process, cache off): the server
thread's own time is what every other request, a cache hit included, can wait behind.

**Command:** \`npm run bench:starvation\` (also part of \`npm run bench\`). **Date:** ${new Date().toISOString().slice(0, 10)}, a 1-minute load average of
${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores at the end of the run.

| statements run | reader | uncached p50 / p90 | p50 vs alone | cache hit p50 / p90 / max |
|---|---|---|---|---|
${rows.join('\n')}

| statements run | request | server thread CPU | whole process CPU (workers included) |
|---|---|---|---|
${f.cpu.map((c) => `| ${c.threads === 0 ? 'in the server thread' : `worker pool (${c.threads})`} | ${c.facets ? 'with `facets=type,tags`' : 'plain'} | ${c.eventLoopMs.toFixed(2)} ms | ${c.processMs.toFixed(2)} ms |`).join('\n')}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await runStarvation();
  console.log(JSON.stringify(figures, null, 2));
  console.log(starvationSection(figures));
}
