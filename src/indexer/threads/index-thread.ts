import { Worker } from 'node:worker_threads';
import { SiteSearchError } from '../../errors.js';
import type { BuildStats } from '../build.js';
import type { PushCounts } from '../changes.js';
import type { PushTarget } from '../push.js';
import type { ResolvedConfig } from '../../options/options.js';

// Kept apart from index-job.ts so the CLI's own thread loads none of the indexer: it only starts the worker.

/** One index run: what the CLI hands to the worker (plain data, so it crosses the thread boundary). */
export interface IndexJob {
  config: ResolvedConfig;
  /** Source paths in the options are relative to this directory. */
  cwd: string;
  target: PushTarget;
  /** Rewrite the site whole (`--full`). */
  full?: boolean;
  /** Write nothing, say what would be written (`--dry-run`). */
  dryRun?: boolean;
}

export interface IndexOutcome {
  stats: BuildStats;
  documents: number;
  destination: string;
  counts: PushCounts;
  dryRun: boolean;
}

export type Progress = (done: number, total: number) => void;

export type WorkerMessage = { progress: [number, number] } | { outcome: IndexOutcome } | { error: { message: string; stack?: string } };

/** Built next to the CLI, in dist/. */
const WORKER = new URL('./index-worker.js', import.meta.url);

/**
 * Runs an index job (index-job.ts) in a worker thread with a small young generation. Indexing allocates a lot of
 * short-lived strings, and V8 sizes the young generation by the machine's memory, which on a large machine by itself
 * raised the peak RSS of a large build (docs/decisions.md, "Performance"); capped, the build runs as fast.
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
