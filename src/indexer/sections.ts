import GithubSlugger from 'github-slugger';
import { SECTION_MATCH_CHARS } from '../db/schema.js';
import { cutOnWord } from './cut.js';
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
    sections.push({ heading, anchor: slugger.slug(raw), content: content.slice(0, SECTION_MATCH_CHARS) });
  }
  return sections;
}

/**
 * How much text past `maxContentLength` a page keeps to be searched: as much again, so a row stays bounded (twice as
 * much cost a labeled query on the Astro docs: bm25 normalises by the whole row's length; docs/ranking.md).
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
  for (const { heading, text } of parts) {
    const whole = [heading, text].filter(Boolean).join(' ');
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

/** The page body: its parts' headings and texts in order, as one text. */
export function bodyOf(parts: PreparedSection[]): string {
  return parts
    .flatMap((p) => [p.heading, p.text])
    .filter(Boolean)
    .join(' ');
}

export type { TextSection };
