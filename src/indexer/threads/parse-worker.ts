// A parse worker of readInWorkers: takes the options, then decodes and parses each batch of files it is sent (read by
// the thread that sends them), answering in the order asked.
import { parentPort } from 'node:worker_threads';
import { parseSourceFile } from '../build.js';
import { loadFrontmatterChecks, type FrontmatterChecks } from '../frontmatter-rules.js';
import type { ResolvedConfig } from '../../options/options.js';
import type { ParseWorkerMessage } from './parallel.js';

let config: ResolvedConfig | undefined;
/** The frontmatter rules, loaded once the options name them; batches wait for them in the order they came. */
let checks: Promise<FrontmatterChecks> = Promise.resolve({});
parentPort!.on('message', (message: ParseWorkerMessage) => {
  if (!Array.isArray(message)) {
    config = message.config;
    checks = loadFrontmatterChecks(message.rules);
  } else {
    // A rule set that fails to load fails the run (an uncaught rejection ends the worker with the error).
    void checks.then((loaded) => parentPort!.postMessage(message.map((file) => parseSourceFile(file, config!, loaded))));
  }
});
