/**
 * A heading ended as a sentence in the page's one-line text: "## Install" followed by "Run npm …" is stored as
 * "Install. Run npm …", so a snippet across the two reads as two sentences, not as "Install Run npm …". The tokenizer
 * splits at the stop, so what is searched is unchanged.
 */

/** Characters that already end a heading as a sentence would (or as a label does: "Note:"). */
const ENDS_SENTENCE = /[.!?:;…。！？：；]$/u;

/** Scripts written without spaces take their own full stop. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]$/u;

/** `heading` (rendered to text) with a full stop after it, unless it is empty or already ends a sentence. */
export function headingAsSentence(heading: string): string {
  const text = heading.trimEnd();
  if (text === '' || ENDS_SENTENCE.test(text)) return text;
  return `${text}${UNSPACED.test(text) ? '。' : '.'}`;
}
