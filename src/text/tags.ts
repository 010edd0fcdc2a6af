/**
 * Tag values as the indexer stores them and the `tags` filter compares them (issue 44): the same value on both sides,
 * whatever its Unicode form, and nothing in a tag that a reader cannot see.
 */

/**
 * Characters that show nothing or reorder the text around them: every format character (zero-width spaces and
 * joiners, the word joiner, the soft hyphen, the byte-order mark, the bidirectional marks, embeddings, overrides and
 * isolates), the fillers and the braille pattern that render as blank space, and the marks that change nothing on
 * their own (the combining grapheme joiner, variation selectors, Mongolian free variation selectors, Khmer's inherent
 * vowels). A chip holding one would look like another chip (`café` and `café` + U+FE0F), or read backwards.
 */
const INVISIBLE = /[\p{Cf}\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180d\u180f\u2800\u3164\ufe00-\ufe0f\uffa0\u{e0100}-\u{e01ef}]/gu;

/**
 * The longest tag accepted, in characters: far above any real tag, far below what would cost the statement. The
 * `tags` filter refuses a longer one; the indexer leaves a longer frontmatter tag out, with a warning.
 */
export const MAX_TAG_LENGTH = 100;

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
