import { foldWord } from '../text/fold.js';
import { removeWordBreaks } from '../text/segment.js';

/**
 * A page's best-matching headed section: the one whose heading and text hold the most occurrences of the query's
 * words (a heading occurrence counts ten times). `sections` is the JSON the search statement reads for the page.
 */
export function bestSection(sections: string | null, words: string[]): { heading: string; anchor: string } | undefined {
  let best: { heading: string; anchor: string } | undefined;
  let bestScore = 0;
  for (const [heading, anchor, content] of JSON.parse(sections ?? '[]') as [string, string, string][]) {
    // The stored text is already folded.
    const score = 10 * occurrences(foldWord(heading), words) + occurrences(content, words);
    if (score > bestScore) {
      bestScore = score;
      best = { heading, anchor };
    }
  }
  return best;
}

/**
 * The stems a section is scored by: each query word folded, long ones cut by two letters (so "collections" finds
 * "collection"). A one-letter Latin word ("a", "i") is left out when the query has others: as a stem it starts
 * every tenth word of the text, so it only blurs the choice (and was most of what counting cost).
 */
export function sectionWords(terms: string[]): string[] {
  const stems = terms.map(foldWord).filter((w) => w.length > 0).map((w) => (w.length > 5 ? w.slice(0, -2) : w));
  const telling = stems.filter((w) => !(w.length === 1 && w.charCodeAt(0) < 128));
  return telling.length > 0 ? telling : stems;
}

/** How many times words start with one of `stems` in `text` (so "collection" counts for "collections"). */
function occurrences(text: string, stems: string[]): number {
  let n = 0;
  for (const stem of stems) {
    for (let i = text.indexOf(stem); i !== -1; i = text.indexOf(stem, i + stem.length)) {
      if (i === 0 || !isWordChar(text.charCodeAt(i - 1))) n++;
    }
  }
  return n;
}

/** Letters and digits, cheaply for ASCII; anything else non-ASCII counts as a word character except the word break. */
function isWordChar(code: number): boolean {
  if (code < 128) return (code >= 48 && code <= 57) || (code >= 97 && code <= 122) || (code >= 65 && code <= 90);
  return code !== 0x200b && code !== 0x3000 && !(code >= 0x3001 && code <= 0x303f) && !(code >= 0xff01 && code <= 0xff0f);
}

export function sectionOf(found: { heading: string; anchor: string } | undefined, pageUrl: string) {
  if (!found) return {};
  return { section: { heading: removeWordBreaks(found.heading), url: `${pageUrl}#${found.anchor}` } };
}
