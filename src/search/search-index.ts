import { resolveConfig } from '../options/config.js';
import { billsRowsRead, forSearch } from '../db/d1.js';
import type { SearchDatabase } from '../db/types.js';
import type { ResolvedConfig, SearchOptions } from '../options/options.js';
import { ALL_RANKINGS } from '../ranking/index.js';
import { normalizeSearchInput, type RawSearchInput } from './query.js';
import type { SearchResult } from './results.js';
import { runSearch } from './search.js';

/** Arguments of {@link searchIndex}: the endpoint's query parameters plus the database and origin. */
export interface SearchArgs extends RawSearchInput {
  db: SearchDatabase;
  /** Origin that stored relative URLs are resolved against (`https://example.com`). Without it URLs stay relative. */
  origin?: string;
  /** The moment recency is measured from. Default: now. */
  now?: Date;
}

/**
 * Searches the index exactly as the endpoint does: same validation (throws `SearchInputError` with the 400 message),
 * same ranking, same snippets. For server-rendered search pages.
 *
 * @example const results = await searchIndex(config, { db, q: 'content collections', limit: 5, origin: Astro.url.origin });
 */
export async function searchIndex(config: SearchOptions | ResolvedConfig, args: SearchArgs): Promise<SearchResult[]> {
  const resolved = resolveConfig(config);
  const input = normalizeSearchInput(resolved, args);
  const runtime = { origin: args.origin, now: args.now, rowsBilled: billsRowsRead(args.db), rankings: ALL_RANKINGS };
  return (await runSearch(resolved, forSearch(args.db), input, runtime)).results;
}
