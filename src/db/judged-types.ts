import type { Bind } from './types.js';
import { DOCS_TABLE, TABLE } from './schema.js';

/**
 * A search without a type on a site of several types is judged in each type as `type=` judges it there (issue 44): a
 * word is completed or corrected in a type only while fewer than `widenBelow` of that type's pages hold every word as
 * typed, with that type's own vocabulary, and a looser step runs in a type only while the stricter ones found fewer
 * than `widenBelow` of its pages. The statement stays one: the types' strict pages are counted in one pass
 * (`type_strict`), the types whose search is corrected are listed with their group (`judged`), a step that is not
 * every type's runs in the types listed for it (`types1`…), and a step whose expression differs by group is matched by
 * one full-text query per group over a JSON list of the groups' expressions (`json_each`), so that a page is found
 * only by the expression of its own type. Types that share their corrections share a group, and a group no type takes
 * reads nothing.
 */
export interface ByType {
  /** The configured types: the words are looked up in each apart, while it has fewer than `widenBelow` strict pages. */
  types: readonly string[];
  /** The expression a page holding every word as typed matches: what each type's strict pages are counted by. */
  strict: string;
  /** The types of each group corrected alike (a step's `groups` holds each group's expression, in this order). */
  groups: string[][];
  /**
   * Whether the statement decides which types take their group's corrections (those with fewer than `widenBelow` strict
   * pages: corrections chosen in memory, before the statement); otherwise the caller did, from the first statement.
   */
  decide?: boolean;
  /**
   * The groups (counted from 1) whose corrections fix a misspelling rather than complete the last word: their types'
   * pages rank after the pages of the types that hold the words as typed (a reader who typed a word one type has meant
   * that word), each tier by its own scores.
   */
  typoGroups?: number[];
}

/** How many of each type's pages in the site `match` (a {@link TypedMatch}) finds, as `name(type, n)`: one pass, no order. */
export function typeCountTable(name: string, match: TypedMatch, typeColumn: string, site: string, joinDocs: boolean): string {
  const join = joinDocs ? ` LEFT JOIN ${DOCS_TABLE} d ON d.id = f.rowid` : '';
  return `${name} AS MATERIALIZED (SELECT type, count(*) AS n FROM (SELECT ${typeColumn} AS type FROM ${match.from}${TABLE} f${join}
      WHERE ${TABLE} MATCH ${match.match}${site} AND ${match.where(typeColumn)}) GROUP BY type)`;
}

/** Whether type `type` (SQL) has fewer than `enough` (SQL) pages counted in `counts` (a {@link typeCountTable}). */
export function typeBelow(type: string, enough: string, counts = 'type_strict'): string {
  return `coalesce((SELECT n FROM ${counts} WHERE type = ${type}), 0) < ${enough}`;
}

/** The types that take their group's corrections (`judged(type, grp)`, groups counted from 1). */
export function judgedTable(byType: ByType, enough: string, bind: Bind): string {
  const pairs = byType.groups.flatMap((types, i) => types.map((t) => [t, i + 1]));
  const type = `json_extract(j.value, '$[0]')`;
  return `judged AS MATERIALIZED (SELECT ${type} AS type, json_extract(j.value, '$[1]') AS grp FROM json_each(${bind(JSON.stringify(pairs))}) j${
    byType.decide ? ` WHERE ${typeBelow(type, enough)}` : ''
  })`;
}

/**
 * Where a step's rows are found when not every type is searched alike: `from` goes before the full-text table (a
 * join in that order), `match` is what it is matched by, and `where(type)` keeps the rows the expression is for.
 */
export interface TypedMatch {
  from: string;
  match: string;
  where: (typeColumn: string) => string;
  /** The group (SQL) of each row found, where the expression differs by group (0: the types searched as typed). */
  group?: string;
}

/** Every type alike (the `where` is true). */
export function everyType(match: string): TypedMatch {
  return { from: '', match, where: () => '1' };
}

/**
 * One expression per group (`expressions[k]` for group `k`, counted from 1), and `expressions[0]` for every type that
 * takes no group (`undefined`: those types are not searched). A group no type takes is skipped before its query runs
 * (the condition reads the JSON row alone).
 */
export function judgedMatch(expressions: (string | undefined)[], bind: Bind): TypedMatch {
  const base = expressions[0] !== undefined;
  return {
    from: `json_each(${bind(JSON.stringify(expressions.map((e) => e ?? '')))}) g CROSS JOIN `,
    match: 'g.value',
    group: 'g.key',
    where: (type) => `(${base ? 'g.key = 0 OR ' : ''}g.key IN (SELECT grp FROM judged)) AND coalesce((SELECT grp FROM judged WHERE type = ${type}), 0) = g.key`,
  };
}

/** `match` kept to the types `types` lists (`table WHERE condition`: those a step runs in). */
export function inTypes(match: TypedMatch, types: string): TypedMatch {
  return { ...match, where: (type) => `${match.where(type)} AND ${type} IN (SELECT type FROM ${types})` };
}

/**
 * Each type's pages matched by the steps that ran in it, for the facet counts: one expression per last step run and
 * group (`expressions[m][k]`: the steps 0…m that run in group k, as in {@link judgedMatch}), a page counted by its
 * type's. The last step that ran in each type and its group are read from `levels(type, m, k)` ({@link levelsTable}).
 */
export function leveledMatch(expressions: (string | undefined)[][], bind: Bind): TypedMatch {
  const rows = expressions.flatMap((byGroup, m) => byGroup.flatMap((e, k) => (e === undefined ? [] : [[e, m, k]])));
  return {
    from: `(SELECT json_extract(value, '$[0]') AS value, json_extract(value, '$[1]') AS m, json_extract(value, '$[2]') AS k FROM json_each(${bind(JSON.stringify(rows))})
      WHERE EXISTS (SELECT 1 FROM levels l WHERE l.m = json_extract(value, '$[1]') AND l.k = json_extract(value, '$[2]'))) g CROSS JOIN `,
    match: 'g.value',
    where: (type) => `${type} IN (SELECT type FROM levels WHERE m = g.m AND k = g.k)`,
  };
}

/** Each configured type, the last of the later steps that ran in it (0: none) and its group (0: none), from `type_runs`. */
export function levelsTable(later: number): string {
  const ran = Array.from({ length: later }, (_, i) => later - i).map((i) => `WHEN r${i} THEN ${i}`);
  return `levels AS MATERIALIZED (SELECT type, CASE ${ran.join(' ')} ELSE 0 END AS m, k FROM type_runs)`;
}
