/**
 * Word segmentation for scripts written without spaces (Chinese, Japanese, Thai, Lao, Khmer, Myanmar). FTS5's
 * unicode61 tokenizer would make a whole sentence of them one token, so a word inside it could never be found.
 * Both the indexer and the query split such runs into words with `Intl.Segmenter` (Node and workerd both have it);
 * the same segmenter on both sides gives the same words.
 */

/** Separates words in stored text: unicode61 treats it as a separator, and it is invisible when displayed. */
export const WORD_BREAK = '\u200B';

const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\u30FC]+/gu;

/**
 * A cheap first test: the code-unit blocks those scripts live in (Thai, Lao, Myanmar, Khmer, CJK and kana, the CJK
 * compatibility and half-width forms, the high surrogates of the supplementary ideographs). Most text has none of
 * them, and scanning it with this plain class costs a tenth of scanning it with the script classes above.
 */
const MAYBE_UNSPACED = /[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u19e0-\u19ff\u2e80-\u9fff\ua9e0-\ua9ff\uaa60-\uaa7f\uf900-\ufaff\uff00-\uffef\ud805\ud81b\ud82b\ud82c\ud83c\ud840-\ud8bf]/;

let segmenter: Intl.Segmenter | null | undefined;
function wordSegmenter(): Intl.Segmenter | null {
  if (segmenter === undefined) {
    segmenter = typeof Intl !== 'undefined' && 'Segmenter' in Intl ? new Intl.Segmenter(undefined, { granularity: 'word' }) : null;
  }
  return segmenter;
}

/**
 * Splits every run of unspaced script into words separated by `separator`, also at the run's edges (unicode61 would
 * otherwise glue "到Vercel" into one token); other text is left as it is.
 */
export function segmentUnspaced(text: string, separator: string = WORD_BREAK): string {
  if (!MAYBE_UNSPACED.test(text)) return text;
  const words = wordSegmenter();
  if (!words) return text;
  // One segment() call per text, not one per run: each call holds an ICU break iterator outside the JS heap until the
  // next GC, and with one per run they piled up to hundreds of MB while indexing a Chinese site.
  let segments: Intl.Segments | undefined;
  return text.replace(UNSPACED, (run, offset: number, whole: string) => {
    segments ??= words.segment(whole);
    const parts: string[] = [];
    const end = offset + run.length;
    for (let i = offset; i < end; ) {
      const { index, segment } = segments.containing(i)!;
      const next = Math.min(index + segment.length, end);
      parts.push(whole.slice(i, next));
      i = next;
    }
    const before = offset > 0 && /[\p{L}\p{N}]/u.test(whole[offset - 1]!) ? separator : '';
    const after = /[\p{L}\p{N}]/u.test(whole[end] ?? '') ? separator : '';
    return before + parts.join(separator) + after;
  });
}

/** Removes the word breaks the indexer inserted, for display. */
export function removeWordBreaks(text: string): string {
  return text.includes(WORD_BREAK) ? text.replaceAll(WORD_BREAK, '') : text;
}
