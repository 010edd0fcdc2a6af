import { databaseFile } from '../db/database-file.js';
import type { SearchDatabase } from '../db/types.js';
import { isDamagedIndexError, REBUILD_DAMAGED_INDEX, SiteSearchError } from '../errors.js';

/** How often one failure that repeats on every request is logged again. */
export const REPEAT_LOG_MS = 60_000;

/** The 500 of a damaged index: what visitors see (no path: the server's folders are none of theirs), and the fix. */
const DAMAGED_INDEX = `Search index is damaged: the database file is not a valid SQLite database. ${REBUILD_DAMAGED_INDEX}, then restart the server.`;

/**
 * What the handler does when a local index fails on every request: a file that cannot be opened (missing, damaged), or
 * one whose pages turn out damaged. Each failure is logged as one line, the first time and then at most once a minute
 * while it lasts (a stack per request buries the one line a person needs); a database found damaged by a query
 * answers every later query with the same 500, without running it, so a partly damaged file never answers some
 * queries and fails others. The Worker entry leaves this out (D1 has no file to damage; the bundle stays small).
 * @internal
 */
export interface IndexFailures {
  /** The 500 message for a database that could not be opened (tried again on the next request), logged. */
  openFailed(e: unknown): string;
  /** The 500 message when `db` was found damaged, logged again at most once a minute; else `undefined`. */
  damaged(db: SearchDatabase): string | undefined;
  /** When a search's error says the file is damaged: marks `db` so, logs it naming the file, and returns the 500 message. */
  searchFailed(db: SearchDatabase, e: unknown): Promise<string | undefined>;
}

/** A fresh {@link IndexFailures} for one handler; `now` is the clock the once-a-minute rule reads. @internal */
export function indexFailures(now: () => number = () => Date.now()): IndexFailures {
  let last = '';
  let at = -Infinity;
  const log = (line: string) => {
    if (line === last && now() - at < REPEAT_LOG_MS) return;
    [last, at] = [line, now()];
    console.error(line);
  };
  // Each damaged database and its log line.
  const damaged = new WeakMap<SearchDatabase, string>();
  return {
    openFailed(e) {
      // Our own errors (a missing or damaged index file) say what to do; the JSON error carries no log prefix.
      const message = e instanceof SiteSearchError ? e.message.replace(/^\[site-search\] /, '') : `Search database could not be opened: ${(e as Error).message}`;
      log(`[site-search] ${message}`);
      return message;
    },
    damaged(db) {
      const line = damaged.get(db);
      if (line) log(line);
      return line && DAMAGED_INDEX;
    },
    async searchFailed(db, e) {
      if (!isDamagedIndexError(e)) return undefined;
      const file = await databaseFile(db);
      if (!damaged.has(db)) {
        damaged.set(db, `[site-search] Search index is damaged: ${file ?? 'the database'} (${(e as Error).message}); every search answers 500. ${REBUILD_DAMAGED_INDEX}, then restart the server.`);
      }
      log(damaged.get(db)!);
      return DAMAGED_INDEX;
    },
  };
}
