import { Worker } from 'node:worker_threads';
import { SiteSearchError } from '../errors.js';
import type { ResolvedConfig } from '../options.js';
import type { FileReader, FileResult, FileTask } from './build.js';

/** Built next to the CLI, in dist/. */
const WORKER = new URL('./parse-worker.js', import.meta.url);
const BATCH = 16;
/** Batches sent ahead of the one being written: enough to keep the parse workers busy, few enough to hold little. */
const AHEAD = 2;

/**
 * A {@link FileReader} that parses in worker threads while the caller writes to SQLite: parsing Markdown and writing
 * FTS5 rows each take about half of a build, so they overlap. Batches of files go to the workers in turn, at most a
 * few ahead of the writer, and their results are taken back in the same order, so documents come out in file order
 * (the same index as one thread builds) and nothing piles up in memory. One worker by default: on two cores a second
 * one gained 5% at 100,000 pages for 55 MB more peak memory.
 */
export function readInWorkers(threads = 1, worker: URL = WORKER): FileReader {
  return async function* (tasks: FileTask[], config: ResolvedConfig): AsyncGenerator<FileResult> {
    const batches = Math.ceil(tasks.length / BATCH);
    const workers = Array.from({ length: Math.min(threads, batches) }, () => startWorker(worker, config));
    const pending: Promise<FileResult[]>[] = [];
    const send = (b: number) => pending.push(workers[b % workers.length]!.parse(tasks.slice(b * BATCH, (b + 1) * BATCH)));
    try {
      for (let b = 0; b < Math.min(AHEAD, batches); b++) send(b);
      for (let b = 0; b < batches; b++) {
        const results = await pending.shift()!;
        if (b + AHEAD < batches) send(b + AHEAD);
        yield* results;
      }
    } finally {
      // Failed batches still pending must not surface as unhandled rejections once the workers are gone.
      for (const p of pending) p.catch(() => {});
      await Promise.all(workers.map((w) => w.stop()));
    }
  };
}

function startWorker(url: URL, config: ResolvedConfig) {
  const worker = new Worker(url, {
    workerData: config,
    // As for the index worker: a small young generation keeps peak memory down at the same speed.
    resourceLimits: { maxYoungGenerationSizeMb: 8 },
  });
  const waiting: { resolve: (results: FileResult[]) => void; reject: (e: unknown) => void }[] = [];
  let failure: unknown;
  const fail = (e: unknown) => {
    failure ??= e;
    for (const w of waiting.splice(0)) w.reject(failure);
  };
  worker.on('message', (results: FileResult[]) => waiting.shift()?.resolve(results));
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new SiteSearchError(`Indexing stopped: a parse worker exited with code ${code}.`)));
  return {
    parse(tasks: FileTask[]): Promise<FileResult[]> {
      if (failure) return Promise.reject(failure);
      worker.postMessage(tasks);
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
    stop: () => worker.terminate(),
  };
}
