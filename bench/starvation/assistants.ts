/**
 * `npm run bench:assistants-load` (issue 54, items 2 and 3): a reader of a Node server beside assistants' traffic. At
 * 10,000 documents, node:http through `site-search/node` (the built package, a process of its own) serves the endpoint
 * and the MCP server over one index. A reader (from 127.0.0.2) asks the query mix one request at a time, each new to the
 * cache, alone and beside:
 * - two MCP attackers (127.0.0.1), two connections sending JSON-RPC batches of 10 costly searches back to back, each
 *   batch new to the cache (issue 54's row 3: reader p50 13.9 → 422 ms before);
 * - two addresses (127.0.0.1 and 127.0.0.3) with 10 connections each, sending common words with a new offset and limit
 *   (row 4: 13.9 → 3,989 ms on a machine at load 9).
 * Rounds interleave the phases (each with its own `limit`), so drift in a shared machine's load weighs on each alike.
 * Wall time from the reader's side (what waiting behind others shows in), and beside it, from the server, its process
 * CPU time (workers included) per second of the phase and per attacking request: whether the server had the cores to
 * itself (CPU near 2 s a second on 2 cores) or waited for them.
 */
import type { ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { Agent, get } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { baseConfig } from '../corpus.js';
import { writeLatencyIndex } from '../perf/latency.js';
import { QUERY_MIX } from '../perf/measure.js';
import { start, stop } from './processes.js';

const here = dirname(fileURLToPath(import.meta.url));
const AUTOCANNON_ROOT = join(here, '..', '..', 'node_modules');
const DOCUMENTS = 10_000;
const ROUNDS = [10, 9, 11];
const PHASES = ['alone', 'beside two MCP attackers (batches of 10 searches)', 'beside two addresses × 10 connections (endpoint)'] as const;
type Phase = (typeof PHASES)[number];

const pct = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(p * values.length))]!;

function timedGet(agent: Agent, port: number, path: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path, agent, localAddress: '127.0.0.2' }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(`[bench] ${path}: ${res.statusCode}`))));
    }).on('error', reject);
  });
}

const serverCpu = async (port: number) => (await (await fetch(`http://127.0.0.1:${port}/__cpu`)).json()) as { cpuMs: number; search: number; mcp: number };

interface Sample {
  reader: number[];
  cpuMsPerSecond: number[];
  attackRequests: number;
  attackCpuMs: number;
  load: number[];
}

async function phase(index: string, which: Phase, limit: number): Promise<Omit<Sample, 'load'> & { load: number }> {
  const server = await start([join(here, 'assistants-server.mjs'), index, JSON.stringify(baseConfig)]);
  const port = (JSON.parse(server.line) as { port: number }).port;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const attackers: ChildProcess[] = [];
  try {
    for (const [q, lang] of QUERY_MIX.slice(0, 20)) await timedGet(agent, port, `/api/search?q=${encodeURIComponent(q)}&type=${lang}&limit=5`);
    const attack = (host: string, kind: string) => start([join(here, 'assistants-attack.cjs'), `http://${host}:${port}`, kind], AUTOCANNON_ROOT);
    if (which === PHASES[1]) attackers.push((await attack('127.0.0.1', 'mcp')).child);
    if (which === PHASES[2]) attackers.push((await attack('127.0.0.1', 'endpoint')).child, (await attack('127.0.0.3', 'endpoint')).child);
    if (attackers.length) await new Promise((r) => setTimeout(r, 1000));
    const [cpu0, t0] = [await serverCpu(port), performance.now()];
    const reader: number[] = [];
    for (const [q, lang] of QUERY_MIX) reader.push(await timedGet(agent, port, `/api/search?q=${encodeURIComponent(q)}&type=${lang}&limit=${limit}`));
    const [cpu1, t1] = [await serverCpu(port), performance.now()];
    const attackRequests = cpu1.mcp - cpu0.mcp + (cpu1.search - cpu0.search) - reader.length;
    const spent = cpu1.cpuMs - cpu0.cpuMs;
    return { reader, cpuMsPerSecond: [spent / ((t1 - t0) / 1000)], attackRequests, attackCpuMs: attackRequests > 0 ? spent : 0, load: loadavg()[0]! };
  } finally {
    agent.destroy();
    for (const a of attackers) await stop(a);
    await stop(server.child);
  }
}

const { path } = await writeLatencyIndex(DOCUMENTS);
const samples = new Map<Phase, Sample>();
for (const limit of ROUNDS) {
  for (const which of PHASES) {
    console.error(`[bench] assistants-load: limit ${limit}, reader ${which}…`);
    const got = await phase(path, which, limit);
    const s = samples.get(which) ?? { reader: [], cpuMsPerSecond: [], attackRequests: 0, attackCpuMs: 0, load: [] };
    samples.set(which, { reader: [...s.reader, ...got.reader], cpuMsPerSecond: [...s.cpuMsPerSecond, ...got.cpuMsPerSecond], attackRequests: s.attackRequests + got.attackRequests, attackCpuMs: s.attackCpuMs + got.attackCpuMs, load: [...s.load, got.load] });
    console.error(`[bench] reader p50 ${pct(got.reader, 0.5).toFixed(1)} ms, server CPU ${got.cpuMsPerSecond[0]!.toFixed(0)} ms/s, attacking requests ${got.attackRequests}, load ${got.load.toFixed(1)}`);
  }
}
const alone = pct(samples.get('alone')!.reader, 0.5);
console.log('| reader | p50 / p90 | p50 vs alone | server CPU per second of the phase | attacking requests answered | server CPU per attacking request | 1-min load average |');
console.log('|---|---|---|---|---|---|---|');
for (const which of PHASES) {
  const s = samples.get(which)!;
  const perRequest = s.attackRequests ? `${(s.attackCpuMs / s.attackRequests).toFixed(1)} ms` : '–';
  console.log(`| ${which} | ${pct(s.reader, 0.5).toFixed(1)} / ${pct(s.reader, 0.9).toFixed(1)} ms | ${(pct(s.reader, 0.5) / alone).toFixed(1)}× | ${pct(s.cpuMsPerSecond, 0.5).toFixed(0)} ms | ${s.attackRequests} | ${perRequest} | ${s.load.map((l) => l.toFixed(1)).join(', ')} |`);
}
