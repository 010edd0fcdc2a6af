/**
 * What an attacking request costs the server's event loop, in CPU time (steady on a busy machine, unlike wall time):
 * the server thread's own CPU (`process.threadCpuUsage()`) and the whole process's (`process.cpuUsage()`, the
 * workers included), per request, with the statements in the server thread and in the worker pool. The event loop's
 * share is what a cache hit can wait behind.
 */
import { openSqlite } from '../../adapters/node.js';
import { createSearchHandler } from '../../src/index.js';
import { baseConfig } from '../corpus.js';

export interface RequestCpu {
  threads: number;
  facets: boolean;
  /** ms of the server thread per request. */
  eventLoopMs: number;
  /** ms of the whole process per request (workers included). */
  processMs: number;
}

const WORDS = ['the', 'astro', 'component', 'config', 'page', 'content', 'build', 'data'];
const REQUESTS = 80;

const ms = ({ user, system }: NodeJS.CpuUsage) => (user + system) / 1000;

/** Attacking requests (a common word, a new offset and limit each) through the handler, cache off. */
export async function attackCpu(path: string, threads: number): Promise<RequestCpu[]> {
  const out: RequestCpu[] = [];
  for (const facets of [false, true]) {
    const db = openSqlite(path, { threads });
    try {
      await (db as typeof db & { pool?: { ready(): Promise<void> } }).pool?.ready();
      const handler = createSearchHandler(baseConfig, { db, cache: false });
      const ask = (i: number) =>
        handler(new Request(`http://bench/api/search?q=${WORDS[i % WORDS.length]}&offset=${(i * 37) % 201}&limit=${25 - (i % 5)}${facets ? '&facets=type,tags' : ''}`)).then((r) => r.text());
      for (let i = 0; i < 30; i++) await ask(i); // warm-up
      const [thread, all] = [process.threadCpuUsage(), process.cpuUsage()];
      for (let i = 100; i < 100 + REQUESTS; i++) await ask(i);
      out.push({ threads, facets, eventLoopMs: ms(process.threadCpuUsage(thread)) / REQUESTS, processMs: ms(process.cpuUsage(all)) / REQUESTS });
    } finally {
      db.close();
    }
  }
  return out;
}
