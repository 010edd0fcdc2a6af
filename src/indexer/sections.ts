import GithubSlugger from 'github-slugger';
import { SECTION_MATCH_CHARS } from '../db/schema.js';
import { cutOnWord } from '../text/cut.js';
import { headingAsSentence } from './heading-sentence.js';
import type { TextSection } from './text.js';

/**
 * A section row of the index: the heading, its anchor on the page, and the start of its text (folded for matching when
 * it is written, by the SQLite thread rather than the parser, which sets the pace of a build).
 */
export interface IndexSection {
  heading: string;
  /** The heading's id on the built page (github-slugger, as Astro, GitHub and most docs generators make them). */
  anchor: string;
  content: string;
}

/** A page's parts as extracted (`raw`, for anchors) and as stored (`heading` and `text`, cleaned and segmented). */
export interface PreparedSection {
  raw: string;
  heading: string;
  text: string;
}

/**
 * The page's headed sections, for pointing a result at the part of the page that matched, over the first `maxChars`
 * characters of body: the page's `content` and the text past it that is searched too ({@link deepText}).
 */
export function sectionsOf(parts: PreparedSection[], maxChars: number): IndexSection[] {
  const slugger = new GithubSlugger();
  const sections: IndexSection[] = [];
  let budget = maxChars;
  for (const { raw, heading, text } of parts) {
    if (budget <= 0) break;
    const content = text.slice(0, budget);
    budget -= content.length + heading.length;
    // The part before the first heading is the page itself: the page result already points there.
    if (!raw) continue;
    sections.push({ heading, anchor: slugger.slug(raw), content: sectionText(content) });
  }
  return sections;
}

/**
 * What a section row keeps of its text, {@link SECTION_MATCH_CHARS} at most: all of a short one; of a long one its
 * start, then each word of the rest that the start lacks, once, so a word said only deep in the section still points
 * a result at it.
 */
function sectionText(text: string): string {
  if (text.length <= SECTION_MATCH_CHARS) return text;
  const start = cutOnWord(text, Math.floor(SECTION_MATCH_CHARS * 0.7)).content;
  return `${start} ${newWords(text.slice(start.length), wordsIn(start), SECTION_MATCH_CHARS - start.length - 1).words}`.trimEnd();
}

/** A word as FTS5's unicode61 tokenizer reads one: letters, numbers, combining marks and private-use characters. */
const WORD = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;

/** The words of `text`, lowercased (as they are compared). */
function wordsIn(text: string): Set<string> {
  return new Set(Array.from(text.matchAll(WORD), (m) => m[0].toLowerCase()));
}

/**
 * The words of `text` not in `seen`, each once, in the order they come, at most `maxChars` of them; `left` counts those
 * that did not fit. `seen` gains them.
 */
export function newWords(text: string, seen: Set<string>, maxChars: number): { words: string; left: number } {
  const kept: string[] = [];
  let length = 0;
  let left = 0;
  for (const [word] of text.matchAll(WORD)) {
    const key = word.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    if (length + word.length + 1 > maxChars) left++;
    else (kept.push(word), (length += word.length + 1));
  }
  return { words: kept.join(' '), left };
}

/**
 * The rest of a long page, past its body and the deep text ({@link deepText}): every word they lack, once, at most
 * `maxChars` of them, so that every word of the page finds it (bm25 counts such a word once, as said once). `left`:
 * words that did not fit.
 */
export function remainingWords(parts: PreparedSection[], searched: string, maxChars: number): { words: string; left: number } {
  return newWords(bodyOf(parts), wordsIn(searched), maxChars);
}

/**
 * How much text past `maxContentLength` a page keeps to be searched as written: as much again, so a row stays bounded
 * (twice as much cost a labeled query on the Astro docs: bm25 normalises by the whole row's length; docs/ranking.md).
 * Past it, only the words not yet kept ({@link remainingWords}), at most as much again.
 */
export function deepChars(maxContentLength: number): number {
  return maxContentLength;
}

/**
 * A long page's text past the first `start` characters of its body (where `content` ends): each later section's heading
 * and the start of its text (as much as a section row keeps), at most `maxChars` in all. So what a page says near its
 * end is found, and its section with it, while the row stays bounded.
 */
export function deepText(parts: PreparedSection[], start: number, maxChars: number): string {
  const pieces: string[] = [];
  let position = 0;
  let kept = 0;
  for (const part of parts) {
    const heading = headingAsSentence(part.heading);
    const whole = bodyPart(part);
    const from = Math.max(0, start - position);
    position += whole.length + 1;
    if (from >= whole.length || kept >= maxChars) continue;
    const piece = cutOnWord(whole.slice(from).trimStart(), Math.min(SECTION_MATCH_CHARS + heading.length + 1, maxChars - kept)).content;
    if (!piece) continue;
    pieces.push(piece);
    kept += piece.length + 1;
  }
  return pieces.join(' ');
}

/** The page body: its parts in order, as one text. */
export function bodyOf(parts: PreparedSection[]): string {
  return parts.map(bodyPart).filter(Boolean).join(' ');
}

/** A part as the body holds it: its heading ended as a sentence ({@link headingAsSentence}), then its text. */
function bodyPart({ heading, text }: PreparedSection): string {
  return [headingAsSentence(heading), text].filter(Boolean).join(' ');
}

export type { TextSection };
