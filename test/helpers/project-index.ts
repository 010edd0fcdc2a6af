/**
 * A test project's pages indexed by the real indexer into a database of one driver, for the tests of a `describe`
 * block: opened and written before them, closed after (and the indexes this process knew forgotten).
 */
import { afterAll, beforeAll } from 'vitest';
import { resolveConfig, type SearchDatabase, type SearchOptions } from '../../src/index.js';
import { buildIndex, writeIndex } from '../../src/indexer/index.js';
import { forgetKnownIndexes } from '../../src/search/known-index.js';
import type { TestDatabase } from './databases.js';

/** Registers the hooks; `db()` is the database once they ran. */
export function indexedProject(open: () => Promise<TestDatabase>, options: SearchOptions, dir: string): { db: () => SearchDatabase } {
  let handle: TestDatabase | undefined;
  beforeAll(async () => {
    handle = await open();
    const config = resolveConfig(options);
    await writeIndex(handle.db, config, (await buildIndex(config, { cwd: dir })).documents);
  }, 60_000);
  afterAll(async () => {
    forgetKnownIndexes();
    await handle?.close();
  });
  return { db: () => handle!.db };
}
