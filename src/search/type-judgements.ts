import type { SearchPlanRow } from '../db/search-plan.js';

/**
 * A search without a type on a site of several types is the union of its searches in each type (issue 44): each type
 * judged as `type=` judges it, its last word completed or a word corrected with that type's own vocabulary, so that
 * `type=` only ever narrows and a type's facet count is what choosing it gives. Measured on the Astro docs, judging
 * the words across every type at once instead judged a word in every language together (docs/decisions.md).
 */

/** One type's corrections (empty: its search stands as typed). */
export interface TypeCorrections {
  type: string;
  corrections: Map<string, string[]>;
}

/** Types whose corrections are the same, in the order of the first type of each. */
export interface CorrectionGroup {
  types: string[];
  corrections: Map<string, string[]>;
}

/** The types with corrections, grouped by them: each group is one expression in the statement. */
export function correctionGroups(perType: TypeCorrections[]): CorrectionGroup[] {
  const groups = new Map<string, CorrectionGroup>();
  for (const { type, corrections } of perType) {
    if (corrections.size === 0) continue;
    // Every type's corrections are chosen over the same lookups, in their order (chooseCorrections): the same order.
    const key = JSON.stringify([...corrections]);
    const group = groups.get(key);
    if (group) group.types.push(type);
    else groups.set(key, { types: [type], corrections });
  }
  return [...groups.values()];
}

/** Every type's candidates from the first statement's `c` rows (a row per word looked up and type looked up in). */
export function candidatesByType(rows: SearchPlanRow[], lookups: number): Map<string, string[][]> {
  const byType = new Map<string, string[][]>();
  for (const row of rows) {
    if (row.kind !== 'c' || row.type === null) continue;
    const candidates = byType.get(row.type) ?? Array.from({ length: lookups }, () => [] as string[]);
    candidates[Number(row.step)] = JSON.parse(row.json ?? '[]') as string[];
    byType.set(row.type, candidates);
  }
  return byType;
}

/** The types that took their group's corrections, by the statement's own count of their strict pages (`s` rows). */
export function typesCorrected(rows: SearchPlanRow[], groups: CorrectionGroup[], enough: number): Set<string> {
  const strict = new Map(rows.filter((r) => r.kind === 's' && r.type !== null).map((r) => [r.type!, Number(r.score)]));
  return new Set(groups.flatMap((g) => g.types).filter((type) => (strict.get(type) ?? 0) < enough));
}
