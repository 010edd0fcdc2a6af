// A parse worker of readInWorkers: reads and parses each batch of files it is sent, answering in the order asked.
import { parentPort, workerData } from 'node:worker_threads';
import { readSourceFile, type FileResult, type FileTask } from './build.js';
import type { ResolvedConfig } from '../options.js';

const config = workerData as ResolvedConfig;
parentPort!.on('message', (tasks: FileTask[]) => {
  parentPort!.postMessage(tasks.map((task): FileResult => readSourceFile(task, config)));
});
