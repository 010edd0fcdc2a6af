import { Worker } from 'node:worker_threads';
import { SiteSearchError } from '../errors.js';
import { newBuildStats, readDocuments, type BuildStats } from '../indexer/build.js';
import { readInWorkers } from '../indexer/parallel.js';
import { pushIndex, type PushTarget } from '../indexer/push.js';
import type { ResolvedConfig } from '../options.js';

/** One index run: what the CLI hands to the worker (plain data, so it crosses the thread boundary). */
export interface IndexJob {
  config: ResolvedConfig;
  /** Source paths in the options are relative to this directory. */
  cwd: string;
  target: PushTarget;
}

export interface IndexOutcome {
  stats: BuildStats;
  documents: number;
  destination: string;
}

export type Progress = (done: number, total: number) => void;

/** Reads the sources and pushes the documents, streaming. */
export async function runIndexJob(job: IndexJob, onProgress?: Progress): Promise<IndexOutcome> {
  const stats = newBuildStats();
  const documents = readDocuments(job.config, stats, { cwd: job.cwd, onProgress, reader: readInWorkers() });
  const pushed = await pushIndex(job.config, job.target, documents, { cwd: job.cwd });
  return { stats, documents: pushed.documents, destination: pushed.destination };
}

/** Built next to the CLI, in dist/. */
const WORKER = new URL('./index-worker.js', import.meta.url);

/**
 * Runs {@link runIndexJob} in a worker thread with a small young generation. Indexing allocates a lot of short-lived
 * strings, and V8 sizes the young generation by the machine's memory (up to 64 MB per semi-space on a 24 GB machine),
 * which by itself added over 100 MB to the peak RSS of a 100,000-page build; capped, the build runs as fast.
 */
export function runIndexJobInWorker(job: IndexJob, onProgress?: Progress): Promise<IndexOutcome> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { workerData: job, resourceLimits: { maxYoungGenerationSizeMb: 16 } });
    worker.on('message', (message: WorkerMessage) => {
      if ('progress' in message) onProgress?.(...message.progress);
      else if ('outcome' in message) resolve(message.outcome);
      else reject(Object.assign(new SiteSearchError(message.error.message), { stack: message.error.stack }));
    });
    worker.on('error', reject);
    worker.on('exit', (code) => reject(new SiteSearchError(`Indexing stopped: its worker thread exited with code ${code}.`)));
  });
}

export type WorkerMessage = { progress: [number, number] } | { outcome: IndexOutcome } | { error: { message: string; stack?: string } };
