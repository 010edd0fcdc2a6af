/** Length in characters (code points): an emoji counts as one, as a person would count it. */
export function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}
