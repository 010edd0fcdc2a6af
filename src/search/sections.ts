import { isFiller } from '../ranking/filler.js';
import { foldWord } from '../text/fold.js';
import { removeWordBreaks } from '../text/segment.js';
import { MARK_CLOSE, MARK_OPEN } from '../text/marks.js';

/** A headed section of a page that matches the query, with the start of its text as written (`''` in older indexes). */
export interface MatchedSection {
  heading: string;
  anchor: string;
  lead: string;
  /** How many of the query's own words (stems: `typed` of {@link matchingSections}) its heading and text hold. */
  holds: number;
}

/**
 * A page's headed sections that match the query, best first, at most `max`: those whose heading and text hold the
 * query's words, ranked by how many times (a heading occurrence counts ten times; ties in page order). `sections` is
 * the JSON the search statement reads for the page. `typed`: the stems of the words the reader meant (not the
 * synonyms also searched), which `holds` counts.
 */
export function matchingSections(sections: string | null, words: string[], max: number, typed: string[] = words): MatchedSection[] {
  const scored: { section: MatchedSection; score: number }[] = [];
  for (const [heading, anchor, content, lead = ''] of JSON.parse(sections ?? '[]') as [string, string, string, string?][]) {
    // The stored text is already folded.
    const folded = foldWord(heading);
    const score = 10 * occurrences(folded, words) + occurrences(content, words);
    if (score > 0) scored.push({ section: { heading, anchor, lead, holds: wordsHeld(`${folded} ${content}`, typed) }, score });
  }
  return scored
    .sort((a, b) => b.score - a.score)
    .slice(0, max)
    .map((s) => s.section);
}

/**
 * The section a result links to: the best-matching one when it holds more of the query's words than the page's
 * introduction (its title and description) does, else none (the link is to the page). A later heading holding one of
 * the words the title holds all of is not where the answer starts.
 */
export function sectionToLink(best: MatchedSection | undefined, intro: string, typed: string[]): MatchedSection | undefined {
  return best && best.holds > wordsHeld(foldWord(intro), typed) ? best : undefined;
}

/** How many of `stems` start a word of `text`. */
function wordsHeld(text: string, stems: string[]): number {
  return stems.filter((stem) => occurrences(text, [stem]) > 0).length;
}

/** A page's best-matching headed section (see {@link matchingSections}). */
export function bestSection(sections: string | null, words: string[]): MatchedSection | undefined {
  return matchingSections(sections, words, 1)[0];
}

/**
 * The stems a section is scored and marked by: each query word folded, long ones cut by two letters (so "collections"
 * finds "collection"). Filler ({@link isFiller}: "and", "with", "on") and one-letter Latin words ("a", "i") are left
 * out when the query has others: they are on nearly every line, so marking them says nothing about why the section
 * matched, and as stems they only blur the choice (and were most of what counting cost).
 */
export function sectionWords(terms: string[]): string[] {
  const words = terms.map((term) => ({ folded: foldWord(term), filler: isFiller(term.toLowerCase()) })).filter((w) => w.folded.length > 0);
  const telling = words.filter((w) => !w.filler && !(w.folded.length === 1 && w.folded.charCodeAt(0) < 128));
  return (telling.length > 0 ? telling : words).map(({ folded }) => (folded.length > 5 ? folded.slice(0, -2) : folded));
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

/**
 * Words of a section's text around the first that starts with one of `stems`, those that do between the snippet
 * sentinels, about `tokens` words (the start when none does): raw text for `escapeSnippet`.
 */
export function sectionSnippet(lead: string, stems: string[], tokens: number): string {
  const words = removeWordBreaks(lead).split(/(\s+)/);
  const hit = (token: string) => {
    if (ASCII.test(token)) {
      // An ASCII word folds by lowercasing, and its core is part of it: a stem not in the lowercased word cannot start
      // its core, which rules out most words without the regular expression (most of what a snippet cost).
      const lower = token.toLowerCase();
      return stems.some((stem) => lower.includes(stem)) && startsWithStem(lower.slice(...coreOffsets(lower)), stems);
    }
    return startsWithStem(foldWord(core(token)[2]!), stems);
  };
  const mark = (token: string) => {
    const [start, end] = coreOffsets(token);
    return `${token.slice(0, start)}${MARK_OPEN}${token.slice(start, end)}${MARK_CLOSE}${token.slice(end)}`;
  };
  // Separators sit at odd indexes: a word is every second entry.
  const first = words.findIndex((w, i) => i % 2 === 0 && hit(w));
  const from = Math.max(0, first - 2 * Math.floor(tokens / 4));
  const to = from + 2 * tokens;
  const text = words.slice(from, to).map((w, i) => (i % 2 === 0 && hit(w) ? mark(w) : w)).join('');
  return `${from > 0 ? '…' : ''}${text.trim()}${to < words.length ? '…' : ''}`;
}

/**
 * A token's first word, without the punctuation around it ("(coasts)." → "coasts", "getEntry()" → "getEntry"): what
 * is compared and marked. Before it, what precedes the word; after it, the rest.
 */
const core = (token: string) => CORE.exec(token)!;
const CORE = /^([^\p{L}\p{N}]*)([\p{L}\p{N}]*)(.*)$/su;

const ASCII = /^[\x00-\x7f]*$/;

/** Where {@link core}'s word starts and ends in the token; an ASCII token without the regular expression. */
function coreOffsets(token: string): [number, number] {
  if (!ASCII.test(token)) {
    const [, before, word] = core(token);
    return [before!.length, before!.length + word!.length];
  }
  // In ASCII, letters and digits are the word characters.
  let start = 0;
  while (start < token.length && !isWordChar(token.charCodeAt(start))) start++;
  let end = start;
  while (end < token.length && isWordChar(token.charCodeAt(end))) end++;
  return [start, end];
}

function startsWithStem(folded: string, stems: string[]): boolean {
  return folded !== '' && stems.some((stem) => folded.startsWith(stem));
}

