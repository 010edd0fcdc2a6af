/**
 * Writes what recorders hold when a Node process stops: on `beforeExit` (the event loop ran dry) and on SIGTERM and
 * SIGINT (a container stopped, Ctrl+C), after which the signal's default (exiting) is carried out unless the
 * application listens for it itself. Without this, up to `flushSeconds` of counts were lost at every stop. Read from
 * `globalThis.process`, so the runtime core imports nothing from `node:`; where there is no process (a Worker) nothing
 * is registered. A process that calls `process.exit()` itself skips both: write with `recorder.flush(db)` first.
 */
interface ProcessLike {
  pid: number;
  on(event: string, listener: () => void): unknown;
  removeListener(event: string, listener: () => void): unknown;
  listenerCount(event: string): number;
  kill(pid: number, signal: string): unknown;
}

/** Recorders with counts to write, held weakly: a recorder dropped by its handler is not kept alive by a hook. */
const holders = new Set<WeakRef<{ flushPending(): Promise<void> }>>();
let hooked = false;

/** Has `holder.flushPending()` called when the process stops (register a holder once: each registration is called). */
export function flushOnExit(holder: { flushPending(): Promise<void> }): void {
  holders.add(new WeakRef(holder));
  if (hooked) return;
  const proc = (globalThis as { process?: Partial<ProcessLike> }).process;
  if (typeof proc?.on !== 'function' || typeof proc.kill !== 'function' || typeof proc.listenerCount !== 'function') return;
  hooked = true;
  const node = proc as ProcessLike;
  const flushAll = () =>
    Promise.all(
      [...holders].map((ref) => {
        const holder = ref.deref();
        if (!holder) holders.delete(ref);
        return holder?.flushPending();
      }),
    );
  node.on('beforeExit', () => void flushAll());
  for (const signal of ['SIGTERM', 'SIGINT']) {
    const onSignal = () => {
      void flushAll().finally(() => {
        node.removeListener(signal, onSignal);
        // Listening to a signal replaces its default; once written, exit as the process would have without us.
        if (node.listenerCount(signal) === 0) node.kill(node.pid, signal);
      });
    };
    node.on(signal, onSignal);
  }
}
