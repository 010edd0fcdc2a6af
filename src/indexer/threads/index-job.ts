import { newBuildStats, readDocuments } from '../build.js';
import { readInWorkers } from './parallel.js';
import { pushIndex } from '../push.js';
import type { IndexJob, IndexOutcome, Progress } from './index-thread.js';

/** Reads the sources and pushes the documents, streaming. Runs in the worker thread that index-thread.ts starts. */
export async function runIndexJob(job: IndexJob, onProgress?: Progress): Promise<IndexOutcome> {
  const stats = newBuildStats();
  const documents = readDocuments(job.config, stats, { cwd: job.cwd, onProgress, reader: readInWorkers() });
  const pushed = await pushIndex(job.config, job.target, documents, { cwd: job.cwd, full: job.full, dryRun: job.dryRun });
  return { stats, documents: pushed.documents, destination: pushed.destination, counts: pushed.counts, dryRun: pushed.dryRun };
}
