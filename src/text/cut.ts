/** Cuts text to at most `max` characters, at the last word boundary, so no word is half-indexed. */
export function cutOnWord(text: string, max: number): { content: string; truncated: boolean } {
  if (text.length <= max) return { content: text, truncated: false };
  let cut = text.slice(0, max + 1);
  // The last whitespace, if it lies in the second half: looked for from the end (a regular expression for it tried
  // every position of every page's 8,000 characters).
  let space = cut.length - 1;
  while (space > max / 2 && !/\s/.test(cut[space]!)) space--;
  cut = space > max / 2 ? cut.slice(0, space) : text.slice(0, max);
  // Never split a surrogate pair at the cut.
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return { content: cut.trimEnd(), truncated: true };
}
