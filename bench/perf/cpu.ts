/**
 * How the benchmark times a query: in process CPU time, not wall time. On a shared machine wall time counts whatever
 * else ran meanwhile (the same work measured 15–147 ms on 2 busy cores, issue 36); the CPU time this process spent
 * repeats within hundredths of a millisecond. Wall time is kept only where the network is modeled (the RTT table).
 */
import { availableParallelism, loadavg } from 'node:os';

/** CPU time (user + system, every thread of this process) in ms since it started. */
export function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** CPU ms `run` takes in this process (awaited: a search is async even where its driver is not). */
export async function cpuTime(run: () => unknown): Promise<number> {
  const start = cpuMs();
  await run();
  return cpuMs() - start;
}

/** The same for a synchronous step. */
export function cpuTimeSync(run: () => unknown): number {
  const start = cpuMs();
  run();
  return cpuMs() - start;
}

/** The highest 1-minute load average seen by {@link warnIfLoaded} in this run, and the machine's cores. */
export const load = { highest: 0, cores: availableParallelism() };

/**
 * Prints a warning when the 1-minute load average exceeds the cores: then other processes wait for a core too, and
 * CPU time, though it counts only this process, rises with them (shared caches, frequency). Once per `what`.
 */
const warned = new Set<string>();
export function warnIfLoaded(what: string): void {
  const [oneMinute = 0] = loadavg();
  load.highest = Math.max(load.highest, oneMinute);
  if (oneMinute <= load.cores || warned.has(what)) return;
  warned.add(what);
  console.error(
    `[bench] warning: load average ${oneMinute.toFixed(1)} over ${load.cores} cores during ${what}: other work shares the machine; CPU times are robust to it, not immune (compare within a run, rerun on a quiet machine)`,
  );
}
