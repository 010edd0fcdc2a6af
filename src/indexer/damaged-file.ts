import { rmSync } from 'node:fs';
import { openSqlite, type SqliteDriver } from '../db/sqlite.js';
import { isDamagedIndexError } from '../errors.js';

/**
 * Why an existing index file is damaged (what SQLite says), or `undefined` when it is sound. `PRAGMA quick_check`
 * reads every page: 1.7 s of CPU for a 228 MB index of 10,000 pages (bench/quick-check.ts), run only before a `--full` push, which takes far
 * longer (a server finds damage on its first failing query instead; docs/decisions.md).
 */
export async function damageOf(path: string, driver?: SqliteDriver): Promise<string | undefined> {
  try {
    const db = openSqlite(path, { driver, readOnly: true });
    try {
      const { results } = await db.prepare('PRAGMA quick_check(1)').all<{ quick_check: string }>();
      const verdict = results[0]?.quick_check;
      // The verdict is several lines ("*** in database main ***\nTree 30 page 50 …"); a warning is one.
      return verdict && verdict !== 'ok' ? verdict.replace(/\*\*\* in database \w+ \*\*\*\s*/g, '').replace(/\s*\n\s*/g, '; ') : undefined;
    } finally {
      db.close();
    }
  } catch (e) {
    const cause = e instanceof Error && isDamagedIndexError(e.cause) ? e.cause : e;
    if (isDamagedIndexError(cause)) return (cause as Error).message;
    throw e;
  }
}

/** Removes a damaged index and the files SQLite keeps beside it, so the push writes a new one. */
export function removeIndexFile(path: string): void {
  for (const file of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]) rmSync(file, { force: true });
}
