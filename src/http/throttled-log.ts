/** How often one failure that repeats on every request is logged again. */
export const REPEAT_LOG_MS = 60_000;

/**
 * A logger for a failure that every request meets (an index that cannot be opened, a damaged one): the first time,
 * then at most once a minute while it lasts, each time one line. A log is read by a person; a stack per request
 * buries it. A new line (another failure) is logged at once.
 */
export function throttledLog(now: () => number = Date.now): (line: string) => void {
  let last = '';
  let at = -Infinity;
  return (line) => {
    if (line === last && now() - at < REPEAT_LOG_MS) return;
    last = line;
    at = now();
    console.error(line);
  };
}
