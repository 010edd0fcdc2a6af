import { writeSync } from 'node:fs';

/**
 * A test hook, and nothing else: `SITE_SEARCH_TEST_PAUSE_AT=<point>` makes a push stop its own process (SIGSTOP) when
 * it reaches that point, after saying so on stderr (`[site-search] test pause at <point>`), so that a test can SIGKILL
 * it at a moment chosen from the push's own progress rather than after a guessed delay
 * (test/reliability/faults.test.ts). The points of a SQLite push:
 * - `cleared`: a rewrite has deleted the site's rows, inside the transaction, before writing any page;
 * - `page:N`: the Nth page's rows are written (N from 1), inside the transaction;
 * - `commit`: every row is written, the transaction not yet committed;
 * - `committed`: the transaction is committed, the FTS5 merge not yet run.
 * Unset, as it is outside that test, it costs one comparison per point.
 */
const PAUSE_AT = process.env.SITE_SEARCH_TEST_PAUSE_AT;

/** Stops the process here when the test hook names this point (see above). */
export function testPause(point: string): void {
  if (PAUSE_AT === undefined || PAUSE_AT !== point) return;
  writeSync(2, `[site-search] test pause at ${point}\n`);
  process.kill(process.pid, 'SIGSTOP');
}
