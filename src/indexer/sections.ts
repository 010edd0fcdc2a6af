import GithubSlugger from 'github-slugger';
import { segmentUnspaced } from '../segment.js';
import { markdownSections } from './text.js';

/** A section row of the index: the heading, its anchor on the page, and its text. */
export interface IndexSection {
  heading: string;
  /** The heading's id on the built page (github-slugger, as Astro, GitHub and most docs generators make them). */
  anchor: string;
  content: string;
}

/**
 * The page's headed sections, for pointing a result at the part of the page that matched. The text stays within the
 * first `maxChars` characters of body, like the page's own `content`, so `maxContentLength` bounds both.
 */
export function sectionsOf(body: string, maxChars: number, clean: (text: string) => string): IndexSection[] {
  const slugger = new GithubSlugger();
  const sections: IndexSection[] = [];
  let budget = maxChars;
  for (const { heading, text } of markdownSections(body)) {
    if (budget <= 0) break;
    const content = clean(text).slice(0, budget);
    budget -= content.length + heading.length;
    // The part before the first heading is the page itself: the page result already points there.
    if (!heading) continue;
    sections.push({ heading: segmentUnspaced(clean(heading)), anchor: slugger.slug(heading), content: segmentUnspaced(content) });
  }
  return sections;
}
