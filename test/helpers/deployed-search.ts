import type { ResolvedConfig, SearchDatabase } from '../../src/index.js';
import { billsRowsRead, forSearch } from '../../src/db/d1.js';
import type { SearchInput } from '../../src/search/query.js';
import { runSearch } from '../../src/search/search.js';
import { ALL_RANKINGS } from '../../src/ranking/index.js';

/**
 * `runSearch` as the endpoint and `searchIndex` call it: through a D1 session when `db` is a D1 binding, with the plan
 * for a database that bills rows read. `runSearch` alone takes the SQLite plan whatever `db` is; a test that counts
 * D1's statements must count the plan D1 runs (issue 48, item 1).
 */
export function asDeployed(config: ResolvedConfig, db: SearchDatabase, input: SearchInput, now?: Date): ReturnType<typeof runSearch> {
  return runSearch(config, forSearch(db), input, { now, rowsBilled: billsRowsRead(db), rankings: ALL_RANKINGS });
}
