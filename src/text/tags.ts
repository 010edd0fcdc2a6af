/**
 * Tag values as the indexer stores them and the `tags` filter compares them (issue 44): the same value on both sides,
 * whatever its Unicode form, and nothing in a tag that a reader cannot see.
 */

/**
 * Characters that show nothing or reorder the text around them: every format character (zero-width spaces and
 * joiners, the word joiner, the soft hyphen, the byte-order mark, the bidirectional marks, embeddings, overrides and
 * isolates) and the fillers that render as blank space. A chip holding one would look like another chip, or read
 * backwards.
 */
const INVISIBLE = /[\p{Cf}\u034f\u115f\u1160\u3164\uffa0]/gu;

/** What the `tags` parameter splits a value at (a comma) or refuses in one (whitespace, a control character). */
export const NOT_IN_A_TAG = /[,\s\p{Cc}]/u;

/** A tag in its one stored form: NFC, without invisible or direction-changing characters, trimmed. */
export function normalizeTag(tag: string): string {
  return tag.normalize('NFC').replace(INVISIBLE, '').trim();
}

/** Whether a tag holds characters {@link normalizeTag} removes. */
export function hasInvisible(tag: string): boolean {
  INVISIBLE.lastIndex = 0;
  return INVISIBLE.test(tag);
}

/** A tag as a message shows it: each invisible character written as its code point (`\u{202e}`). */
export function showInvisible(tag: string): string {
  return tag.replace(INVISIBLE, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
}
