/** Lowercase, accents removed: how the tokenizer compares words. ASCII text (most of it) skips the Unicode work. */
export function foldWord(text: string): string {
  const lower = text.toLowerCase();
  // NFC at the end puts back together what NFD split but is not an accent: a Hangul syllable would stay three jamo.
  return /[^\x00-\x7f]/.test(lower) ? lower.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC') : lower;
}
