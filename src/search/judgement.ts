/**
 * What a query's words stand for in each type searched, decided before the ranking statement (docs/ranking.md,
 * "Misspellings and completions"): a word a type's vocabulary does not hold is corrected there to the type's nearest
 * words, or, the query's last word, completed; and only while fewer than {@link WIDEN_BELOW} of the type's pages hold
 * every word as typed, counted on the query alone (never the tags or page asked). Each type is judged by its own
 * vocabulary and its own pages, the same whether the search asked for that type or for every type at once, so a
 * query without a type is the union of its searches in each type, and `type=` and `tags=` only narrow.
 */
import type { CorrectionGroup, TermsForm } from '../ranking/types.js';
import type { SiteVocabulary } from './site-vocabulary.js';
import { DEFAULT_LIMIT } from './query.js';
import { chooseCorrections, completes, correctableWords } from './typos.js';

/**
 * A type's words are corrected only while fewer than this many of its pages hold every word as typed: a word typed
 * partway still finds its pages when enough of them start with it, and a word no page of the type holds finds none.
 * The endpoint's default `limit`: a default page answers as when the decision followed `limit`.
 */
export const WIDEN_BELOW = DEFAULT_LIMIT;

/**
 * Each type's corrections of the query's words, by its own vocabulary (a type whose vocabulary gives none is left out).
 * The last word of a query as typed may be completed; no word of a reduced question is (each is whole).
 */
export function correctionsByType(
  terms: readonly string[],
  types: readonly string[],
  vocabulary: SiteVocabulary,
  site: string,
  form: TermsForm = 'typed',
): Map<string, Map<string, string[]>> {
  const last = form === 'typed' ? terms[terms.length - 1] : undefined;
  const byType = new Map<string, Map<string, string[]>>();
  for (const word of correctableWords(terms)) {
    for (const [type, { known, candidates }] of vocabulary.judge(word, site, types)) {
      if (known) continue;
      const fixes = chooseCorrections(word, candidates, word === last);
      if (!fixes.length) continue;
      const corrections = byType.get(type) ?? new Map<string, string[]>();
      byType.set(type, corrections.set(word, fixes));
    }
  }
  return byType;
}

/**
 * The types that take their corrections (those where `strict` says fewer than {@link WIDEN_BELOW} pages hold every word
 * as typed), grouped by their corrections, in the order of `types`: each group is one clause of the statement.
 */
export function correctionGroups(byType: ReadonlyMap<string, ReadonlyMap<string, string[]>>, types: readonly string[], strict: ReadonlyMap<string, number>, last: string): CorrectionGroup[] {
  const groups = new Map<string, CorrectionGroup & { types: string[] }>();
  for (const type of types) {
    const corrections = byType.get(type);
    if (!corrections || (strict.get(type) ?? 0) >= WIDEN_BELOW) continue;
    // Every type's corrections are chosen over the query's words in one order: the same corrections, the same key.
    const key = JSON.stringify([...corrections]);
    const group = groups.get(key);
    if (group) group.types.push(type);
    else groups.set(key, { types: [type], corrections, completion: onlyCompletes(corrections, last) });
  }
  return [...groups.values()];
}

/** Whether the corrections only complete the last word, typed partway: its pages hold every word, as far as it was typed. */
function onlyCompletes(corrections: ReadonlyMap<string, readonly string[]>, last: string): boolean {
  return [...corrections].every(([word, fixes]) => word === last && fixes.every((fix) => completes(word, fix)));
}
