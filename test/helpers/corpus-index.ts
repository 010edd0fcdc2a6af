/** A docs corpus indexed in memory by the real indexer (node:sqlite), searched in its English pages. */
import { fileURLToPath } from 'node:url';
import { openSqlite } from '../../adapters/node.js';
import { resolveConfig, searchIndex, type ResolvedConfig, type SearchDatabase } from '../../src/index.js';
import { buildIndex, writeIndex } from '../../src/indexer/index.js';
import { corpusOptions } from '../../bench/labeled-queries.js';

/** Electron's docs, carried in this repository (test/fixtures/electron-docs). */
export const ELECTRON = fileURLToPath(new URL('../fixtures/electron-docs/', import.meta.url));

/** An index of a corpus (a folder per language) in memory; `build` it before searching. */
export function indexOf(corpus: string) {
  const config = resolveConfig(corpusOptions(corpus));
  const db: SearchDatabase & { close(): void } = openSqlite(':memory:');
  const search = (q: string, options: Partial<ResolvedConfig> = {}, limit = 5) => searchIndex({ ...config, ...options }, { db, q, type: 'en', limit });
  return {
    config,
    db,
    build: async () => {
      const { documents } = await buildIndex(config);
      await writeIndex(db, config, documents);
    },
    search,
    urls: async (q: string, options: Partial<ResolvedConfig> = {}, limit = 5) => (await search(q, options, limit)).map((r) => r.url),
  };
}
