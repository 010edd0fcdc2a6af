import type { Bind } from './types.js';
import { DOCS_TABLE, TABLE } from './schema.js';

/**
 * A search without a type on a site of several types is judged in each type as `type=` judges it there (issue 44): a
 * word is completed or corrected in a type only while fewer than `widenBelow` of that type's pages hold every word as
 * typed, and with that type's own vocabulary. The statement stays one: the types' strict pages are counted in one pass
 * (`type_strict`), the types whose search is corrected are listed with their group (`judged`), and each match is found
 * through one full-text query per group, over a JSON list of the groups' expressions (`json_each`), so that a page is
 * found only by the expression of its own type. Types that share their corrections share a group, and a group no type
 * takes reads nothing.
 */
export interface ByType {
  /** The configured types: the words are looked up in each apart, while it has fewer than `widenBelow` strict pages. */
  types: readonly string[];
  /** The expression a page holding every word as typed matches: what each type's strict pages are counted by. */
  strict: string;
  /** The groups of types corrected alike, each with the expressions its pages are found by instead of the step's. */
  groups: JudgedGroup[];
  /**
   * Whether the statement decides which types take their group's corrections (those with fewer than `widenBelow` strict
   * pages: corrections chosen in memory, before the statement); otherwise the caller did, from the first statement.
   */
  decide?: boolean;
}

/** Types corrected alike, and the expressions of their corrected search. */
export interface JudgedGroup {
  types: string[];
  match: string;
  every: string;
}

/** How many of each type's pages in the site hold every word as typed (`type_strict(type, n)`): one pass, no order. */
export function typeStrictTable(byType: ByType, typeColumn: string, site: string, joinDocs: boolean, bind: Bind): string {
  const join = joinDocs ? ` LEFT JOIN ${DOCS_TABLE} d ON d.id = f.rowid` : '';
  return `type_strict AS MATERIALIZED (SELECT type, count(*) AS n FROM (SELECT ${typeColumn} AS type FROM ${TABLE} f${join}
      WHERE ${TABLE} MATCH ${bind(byType.strict)}${site}) GROUP BY type)`;
}

/** Whether type `type` (SQL) has fewer than `enough` strict pages (SQL). */
export function typeBelow(type: string, enough: string): string {
  return `coalesce((SELECT n FROM type_strict WHERE type = ${type}), 0) < ${enough}`;
}

/** The types that take their group's corrections (`judged(type, grp)`, groups counted from 1). */
export function judgedTable(byType: ByType, enough: string, bind: Bind): string {
  const pairs = byType.groups.flatMap((g, i) => g.types.map((t) => [t, i + 1]));
  const type = `json_extract(j.value, '$[0]')`;
  return `judged AS MATERIALIZED (SELECT ${type} AS type, json_extract(j.value, '$[1]') AS grp FROM json_each(${bind(JSON.stringify(pairs))}) j${
    byType.decide ? ` WHERE ${typeBelow(type, enough)}` : ''
  })`;
}

/**
 * Where a step's rows are found when each type has its own expression: `from` goes before the full-text table (a
 * join in that order), `match` is what it is matched by, and `where(type)` keeps the rows the group's expression is
 * for: the first (the step's own) for every type that takes no group, each other for its group's types. A group no
 * type takes is skipped before its query runs (the condition reads the JSON row alone).
 */
export interface JudgedMatch {
  from: string;
  match: string;
  where: (typeColumn: string) => string;
}

/** The {@link JudgedMatch} of `expressions`: the step's own first, then each group's. */
export function judgedMatch(expressions: string[], bind: Bind): JudgedMatch {
  return {
    from: `json_each(${bind(JSON.stringify(expressions))}) g CROSS JOIN `,
    match: 'g.value',
    where: (type) =>
      `(g.key = 0 OR g.key IN (SELECT grp FROM judged)) AND CASE WHEN g.key = 0 THEN ${type} NOT IN (SELECT type FROM judged) ELSE ${type} IN (SELECT type FROM judged WHERE grp = g.key) END`,
  };
}
