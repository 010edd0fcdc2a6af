/**
 * What a search reads before its ranking statement, when it must: the index's schema version and vocabulary generation,
 * the packed vocabulary it judges a query's words by (once per process or isolate and generation), and how many pages
 * match the expressions it judges by: in each type, the query as typed (a word is corrected in a type only while
 * fewer than ten do); or each word of a long question (the rarest are searched). One statement, one round trip on D1.
 */
import { PACKED_VOCAB_TABLE, SCHEMA_VERSION, TABLE, VOCAB_GENERATION_KEY } from './schema.js';
import type { SearchDatabase, SqlValue } from './types.js';

/** A row of {@link inspect}'s statement. */
interface InspectedRow {
  kind: 'meta' | 'words' | 'count';
  /** `meta`: the key; `words`: the site; `count`: the name of the expression counted. */
  name: string | null;
  /** `meta`: the value; `words`: the site's types (JSON). */
  text: string | null;
  /** `words`: the part; `count`: the pages counted (at most the bound asked). */
  number: number | null;
  /** `words`: the packed words. */
  words: string | null;
}

/** The pages matching an expression, counted up to a bound. */
export interface MatchCount {
  /** What the count is known by (a type, a word). */
  name: string;
  /** The full-text expression, with the scope words of what it counts in. */
  match: string;
}

/** What {@link inspect} found. */
export interface InspectedIndex {
  /** Written by this version of site-search's schema: the rankings' statements apply to it. */
  current: boolean;
  /** The vocabulary generation (`''` for an index without one). */
  generation: string;
  /** The packed vocabulary rows, when asked for and the index is current. */
  vocabulary?: { site: string; part: number; types: string; words: string }[];
  /** Each expression's count by its name, when asked for and the index is current. */
  counts?: Map<string, number>;
}

/**
 * How many pages each expression matches, up to `most`, as rows `(name, number)` (SQL and its values): one JSON value
 * bound for any number of types (D1 binds at most 100 values); each count stops at `most`, without an order.
 */
function countsSelect(counts: readonly MatchCount[], most: number): { sql: string; params: SqlValue[] } {
  return {
    sql: `SELECT 'count' AS kind, json_extract(j.value, '$[0]') AS name, NULL AS text,
        (SELECT count(*) FROM (SELECT 1 FROM ${TABLE} WHERE ${TABLE} MATCH json_extract(j.value, '$[1]') LIMIT CAST(? AS INTEGER))) AS number, NULL AS words
      FROM json_each(?) j`,
    params: [most, JSON.stringify(counts.map((c) => [c.name, c.match]))],
  };
}

/** Each expression's matches counted, up to `most`, by its name. */
export async function countMatches(db: SearchDatabase, counts: readonly MatchCount[], most: number): Promise<Map<string, number>> {
  if (!counts.length) return new Map();
  const { sql, params } = countsSelect(counts, most);
  const { results } = await db.prepare(sql).bind(...params).all<InspectedRow>();
  return countsOf(results);
}

/**
 * Reads the index's schema version and vocabulary generation, and with them the packed vocabulary (`vocabulary`) and
 * the counts asked. An index of another schema version (until its next push) or without `search_meta` (a table
 * another tool wrote) is not current: its version is read alone, and the search answers it with the plain statement.
 */
export async function inspect(db: SearchDatabase, { vocabulary, counts = [], most }: { vocabulary: boolean; counts?: readonly MatchCount[]; most: number }): Promise<InspectedIndex> {
  const meta = `SELECT 'meta' AS kind, key AS name, value AS text, NULL AS number, NULL AS words FROM search_meta WHERE key IN ('schema_version', '${VOCAB_GENERATION_KEY}')`;
  const parts = [meta];
  const params: SqlValue[] = [];
  if (vocabulary) parts.push(`SELECT 'words', site, types, part, words FROM ${PACKED_VOCAB_TABLE}`);
  if (counts.length) {
    const select = countsSelect(counts, most);
    parts.push(select.sql);
    params.push(...select.params);
  }
  let rows: InspectedRow[];
  try {
    rows = (await db.prepare(parts.join('\nUNION ALL\n')).bind(...params).all<InspectedRow>()).results;
  } catch (e) {
    // An older index's tables lack what this statement reads: its version, read alone, says so.
    if (!/no such (table|column)/i.test(String((e as Error).message))) throw e;
    return { current: false, generation: (await readMeta(db)).generation };
  }
  const found = metaOf(rows);
  if (!found.current) return { current: false, generation: found.generation };
  return {
    ...found,
    ...(vocabulary ? { vocabulary: rows.filter((r) => r.kind === 'words').map((r) => ({ site: String(r.name), part: Number(r.number), types: String(r.text), words: String(r.words ?? '') })) } : {}),
    ...(counts.length ? { counts: countsOf(rows) } : {}),
  };
}

function countsOf(rows: readonly InspectedRow[]): Map<string, number> {
  return new Map(rows.filter((r) => r.kind === 'count').map((r) => [String(r.name), Number(r.number)]));
}

/** The version and generation alone: `search_meta` is missing from a table another tool wrote. */
async function readMeta(db: SearchDatabase): Promise<{ current: boolean; generation: string }> {
  try {
    const { results } = await db.prepare(`SELECT 'meta' AS kind, key AS name, value AS text FROM search_meta`).all<InspectedRow>();
    return metaOf(results);
  } catch (e) {
    if (/no such table/i.test(String((e as Error).message))) return { current: false, generation: '' };
    throw e;
  }
}

function metaOf(rows: InspectedRow[]): { current: boolean; generation: string } {
  const value = (key: string) => rows.find((r) => r.kind === 'meta' && r.name === key)?.text ?? undefined;
  return { current: value('schema_version') === String(SCHEMA_VERSION), generation: value(VOCAB_GENERATION_KEY) ?? '' };
}
