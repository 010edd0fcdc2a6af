// A parse worker of readInWorkers: takes the options, then decodes and parses each batch of files it is sent (read by
// the thread that sends them), answering in the order asked.
import { parentPort } from 'node:worker_threads';
import { parseSourceFile } from '../build.js';
import type { ResolvedConfig } from '../../options/options.js';
import type { ParseWorkerMessage } from './parallel.js';

let config: ResolvedConfig | undefined;
parentPort!.on('message', (message: ParseWorkerMessage) => {
  if (!Array.isArray(message)) config = message.config;
  else parentPort!.postMessage(message.map((loaded) => parseSourceFile(loaded, config!)));
});
