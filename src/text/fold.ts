/** Latin letters with diacritics (precomposed), and combining marks written separately. */
const LATIN_MARKED = /[\u00c0-\u024f\u1e00-\u1eff\u0300-\u036f]/g;
const MARKS = /\p{M}/gu;

/**
 * Lowercase, accents removed from Latin letters: how the tokenizer (`unicode61 remove_diacritics 2`) compares words.
 * Only the marked letters are decomposed, so other scripts pass through untouched (a Hangul syllable is not split
 * into jamo) and cheaply: the indexer folds the start of every section.
 */
export function foldWord(text: string): string {
  return text.toLowerCase().replace(LATIN_MARKED, (c) => c.normalize('NFD').replace(MARKS, ''));
}
