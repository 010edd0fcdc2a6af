import GithubSlugger from 'github-slugger';
import { SECTION_MATCH_CHARS } from '../schema.js';
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
 * The page's headed sections, for pointing a result at the part of the page that matched. The text stays within the
 * first `maxChars` characters of body, like the page's own `content`, so `maxContentLength` bounds both.
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

/** The page body: its parts' headings and texts in order, as one text. */
export function bodyOf(parts: PreparedSection[]): string {
  return parts
    .flatMap((p) => [p.heading, p.text])
    .filter(Boolean)
    .join(' ');
}

export type { TextSection };
