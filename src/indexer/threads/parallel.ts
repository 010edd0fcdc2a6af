import { Worker } from 'node:worker_threads';
import { SiteSearchError } from '../../errors.js';
import type { ResolvedConfig } from '../../options/options.js';
import { loadSourceFile, type FileReader, type FileResult, type FileTask, type LoadedFile } from '../build.js';
import type { FrontmatterRuleModules } from '../frontmatter-rules.js';

/** Built next to the CLI, in dist/. */
const WORKER = new URL('./parse-worker.js', import.meta.url);
const BATCH = 16;
/** Batches sent ahead of the one being written: enough to keep the parse workers busy, few enough to hold little. */
const AHEAD = 2;

/**
 * A {@link FileReader} that parses in worker threads while the caller writes to SQLite: parsing Markdown and writing
 * FTS5 rows each take about half of a build, so they overlap. Batches of files go to the workers in turn, at most a
 * few ahead of the writer, and their results are taken back in the same order, so documents come out in file order
 * (the same index as one thread builds) and nothing piles up in memory. The files are read here, in the calling
 * thread, which waits on the parser anyway (reading is a small part of the parser's work), and their bytes are
 * transferred, not copied. One worker by default: on two cores a second one is not reliably faster, and on a large
 * site it raises the peak memory past the target (docs/decisions.md).
 *
 * The workers start when the reader is made, so loading the parser in them overlaps listing the files; until the
 * reader runs they do not keep the process alive.
 */
export function readInWorkers(threads = 1, worker: URL = WORKER): FileReader {
  let early: ParseWorker[] | undefined = Array.from({ length: threads }, () => startWorker(worker));
  return async function* (tasks: Iterable<FileTask>, config: ResolvedConfig, rules: FrontmatterRuleModules): AsyncGenerator<FileResult> {
    const workers = early ?? Array.from({ length: threads }, () => startWorker(worker));
    early = undefined;
    const source = tasks[Symbol.iterator]();
    const pending: Promise<FileResult[]>[] = [];
    let sent = 0;
    /** Sends the next batch, if there is one, to the next worker in turn; a worker's first batch comes with the options. */
    const sendNext = () => {
      const batch: LoadedFile[] = [];
      for (let next = source.next(); !next.done; next = source.next()) {
        batch.push(transferable(loadSourceFile(next.value)));
        if (batch.length === BATCH) break;
      }
      if (batch.length === 0) return;
      const to = workers[sent % workers.length]!;
      if (sent < workers.length) to.use(config, rules);
      sent++;
      pending.push(to.parse(batch));
    };
    try {
      for (let b = 0; b < AHEAD; b++) sendNext();
      while (pending.length > 0) {
        const results = await pending.shift()!;
        sendNext();
        yield* results;
      }
    } finally {
      // Failed batches still pending must not surface as unhandled rejections once the workers are gone; workers that
      // never got a batch (fewer batches than workers) stop here too.
      for (const p of pending) p.catch(() => {});
      await Promise.all(workers.map((w) => w.stop()));
    }
  };
}

/**
 * The file with bytes that can be transferred: a small file's Buffer is a view into a pool shared with other Buffers,
 * which must not be transferred, so it gets a buffer of its own.
 */
function transferable(loaded: LoadedFile): LoadedFile {
  if ('skip' in loaded || loaded.bytes.byteLength === loaded.bytes.buffer.byteLength) return loaded;
  return { file: loaded.file, bytes: new Uint8Array(loaded.bytes) };
}

/** The messages a parse worker takes: the options to parse with (first), then batches of files. */
export type ParseWorkerMessage = { config: ResolvedConfig; rules: FrontmatterRuleModules } | LoadedFile[];

interface ParseWorker {
  /** Sends the options and keeps the process alive while the worker has work. */
  use(config: ResolvedConfig, rules: FrontmatterRuleModules): void;
  parse(files: LoadedFile[]): Promise<FileResult[]>;
  stop(): Promise<number>;
}

function startWorker(url: URL): ParseWorker {
  const worker = new Worker(url, {
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
  // After the listeners, which would ref it again.
  worker.unref();
  const post = (message: ParseWorkerMessage) =>
    // The bytes move to the worker without a copy, and never become a string in this thread.
    worker.postMessage(message, Array.isArray(message) ? message.flatMap((f) => ('bytes' in f ? [f.bytes.buffer as ArrayBuffer] : [])) : []);
  return {
    use(config, rules) {
      worker.ref();
      post({ config, rules });
    },
    parse(files) {
      if (failure) return Promise.reject(failure);
      post(files);
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
    stop: () => worker.terminate(),
  };
}
