/** Lowercase, accents removed: how the tokenizer compares words. ASCII text (most of it) skips the Unicode work. */
export function foldWord(text: string): string {
  const lower = text.toLowerCase();
  return /[^\x00-\x7f]/.test(lower) ? lower.normalize('NFD').replace(/\p{M}/gu, '') : lower;
}
