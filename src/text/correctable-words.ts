/**
 * Which words typo tolerance applies to: the indexer keeps only these in the vocabulary the corrections are read
 * from, and the search looks up corrections only for these, so both sides agree on one rule.
 */

/** Words shorter than this are not corrected: too many real words lie one edit away from them. */
const MIN_TYPO_LENGTH = 4;

/** Whether a term is a word typo tolerance applies to (letters only, long enough, not Chinese or Japanese). */
export function isCorrectable(term: string): boolean {
  return term.length >= MIN_TYPO_LENGTH && /^\p{L}+$/u.test(term) && !/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(term);
}
