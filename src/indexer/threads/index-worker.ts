// The worker thread of runIndexJobInWorker: runs one index job and reports progress, the outcome or the error.
import { parentPort, workerData } from 'node:worker_threads';
import { runIndexJob } from './index-job.js';
import type { IndexJob, WorkerMessage } from './index-thread.js';

const post = (message: WorkerMessage) => parentPort!.postMessage(message);
let last = 0;
try {
  const outcome = await runIndexJob(workerData as IndexJob, (done, total) => {
    // The progress line redraws every 80 ms or so; a message per file would be wasted, one per 50 ms is plenty.
    const now = Date.now();
    if (done !== total && now - last < 50) return;
    last = now;
    post({ progress: [done, total] });
  });
  post({ outcome });
} catch (e) {
  post({ error: { message: e instanceof Error ? e.message : String(e), stack: e instanceof Error ? e.stack : undefined } });
}
