/**
 * The typo lookup as the search statement ran it in SQL over `search_vocab` before the in-memory index
 * (src/db/search-plan.ts at d1102d3, its `lookups` table and `c` rows): the reference the in-memory index must
 * reproduce. Kept here, frozen, so the comparison outlives the statement's rewrite.
 */
import type { SearchDatabase, SqlValue } from '../../src/index.js';
import type { CorrectionLookup } from '../../src/search/typos.js';
import type { TypoLookupResult, TypoScope } from '../../src/search/typo-index.js';

/**
 * `ranked`: `'bm25'` as a local database ordered the candidates (`ORDER BY bm25(search_vocab), rowid`), `'rank'` as
 * D1 did (FTS5's own `rank`).
 */
export async function sqlTypoLookup(
  db: SearchDatabase,
  lookup: CorrectionLookup,
  scope: TypoScope,
  { ranked = 'bm25', limit = 40 }: { ranked?: 'bm25' | 'rank'; limit?: number } = {},
): Promise<TypoLookupResult> {
  const filter = [scope.site ? ' AND site = ?' : '', scope.type ? ' AND type = ?' : ''].join('');
  const params = [scope.site, scope.type].filter(Boolean);
  const first = async (sql: string, ...values: SqlValue[]) => (await db.prepare(sql).bind(...values).all<Record<string, unknown>>()).results[0];
  const present = Boolean(await first(`SELECT 1 FROM search_vocab WHERE search_vocab MATCH ?${filter} LIMIT 1`, lookup.in, ...params));
  const known = present && Boolean(await first(`SELECT 1 FROM search_vocab WHERE search_vocab MATCH ? AND term = ?${filter} LIMIT 1`, lookup.in, lookup.term, ...params));
  if (known) return { present, candidates: [] };
  const order = ranked === 'rank' ? 'rank' : 'bm25(search_vocab), rowid';
  const row = await first(
    `SELECT json_group_array(term) AS json FROM (SELECT term FROM search_vocab WHERE search_vocab MATCH ?${filter} ORDER BY ${order} LIMIT ${limit})`,
    lookup.near,
    ...params,
  );
  return { present, candidates: JSON.parse(String(row?.json ?? '[]')) as string[] };
}
