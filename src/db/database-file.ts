import type { SearchDatabase } from './types.js';

/**
 * The file a SQLite database reads (`PRAGMA database_list`), for a log line that names it; `undefined` where there is
 * none (D1, `:memory:`) or the database will not say. It reads no page of the file, so a damaged one answers it.
 */
export async function databaseFile(db: SearchDatabase): Promise<string | undefined> {
  try {
    const { results } = await db.prepare('PRAGMA database_list').all<{ name: string; file: string }>();
    return results.find((r) => r.name === 'main')?.file || undefined;
  } catch {
    return undefined;
  }
}
