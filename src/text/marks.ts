/**
 * The two private-use characters FTS5's snippet() wraps matched words in, instead of `<mark>`: the search statement
 * asks for them, the search layer turns them into markup after escaping the text, and the indexer strips them from
 * indexed text. Here, below both, so the statement's SQL and the escaping agree without the database layer reading
 * the search layer.
 */

/** U+E000 / U+E001 as SQL `char()` code points. */
export const MARK_OPEN_CODE = 0xe000;
export const MARK_CLOSE_CODE = 0xe001;

export const MARK_OPEN = String.fromCharCode(MARK_OPEN_CODE);
export const MARK_CLOSE = String.fromCharCode(MARK_CLOSE_CODE);

const MARKS = new RegExp(`[${MARK_OPEN}${MARK_CLOSE}]`, 'g');

/** Removes the two mark characters from text before it is indexed, so stored text cannot fake a highlight. */
export function stripSentinels(text: string): string {
  return text.replace(MARKS, '');
}
