/**
 * A page of the index as Markdown, for a model to read (`get_page`, llms-full.txt): title, URL, description, then each
 * section under its heading, all from what the index stores (no file system, so it works on D1 as on Node).
 */
import type { StoredPage } from '../db/pages.js';
import { removeWordBreaks } from '../text/segment.js';
import { markdownText, markdownUrl, oneLine } from './markdown-text.js';

/** A stored section: heading, anchor, folded text (for matching), and its start as written (absent in old indexes). */
type SectionEntry = [heading: string, anchor: string, folded: string, lead?: string];

/**
 * The page as Markdown. The body is the indexed text (up to `maxContentLength` characters): it is split at each
 * section's heading where the text still holds it; the sections past the cut give the start of their text as stored,
 * and the page says where to read the rest.
 */
export function pageMarkdown(page: StoredPage, url: string): string {
  const clean = (text: string) => removeWordBreaks(text).trim();
  // The frontmatter's fields are text, escaped on one line each: they cannot start another page, a heading or a link.
  const lines = [`# ${markdownText(page.title)}`, '', `URL: ${markdownUrl(url)}`];
  const about = [page.type && `type: ${markdownText(page.type)}`, page.date && `date: ${markdownText(page.date)}`, page.tags && `tags: ${markdownText(page.tags)}`];
  if (about.some(Boolean)) lines.push(about.filter(Boolean).join(' · '));
  if (page.description) lines.push('', `> ${markdownText(page.description)}`);

  const content = page.content ?? '';
  const sections = JSON.parse(page.sections ?? '[]') as SectionEntry[];
  let position = 0;
  let beyondCut = false;
  let shortened = false;
  const parts: { heading?: string; anchor?: string; text: string }[] = [];
  let current: { heading?: string; anchor?: string } = {};
  for (const [heading, anchor, , lead = ''] of sections) {
    const at = beyondCut ? -1 : headingAt(content, position, heading, lead);
    if (at < 0) {
      // Past the indexed body: a section keeps only the start of its text.
      if (!beyondCut) parts.push({ ...current, text: content.slice(position) });
      beyondCut = true;
      shortened = true;
      parts.push({ heading, anchor, text: lead ? `${lead} …` : '' });
      continue;
    }
    parts.push({ ...current, text: content.slice(position, at) });
    current = { heading, anchor };
    position = at + heading.length;
  }
  if (!beyondCut) parts.push({ ...current, text: content.slice(position) });

  for (const part of parts) {
    const text = clean(part.text);
    if (part.heading === undefined && !text) continue;
    lines.push('');
    // A heading is the body's own text (the author's), on one line: its line cannot become two.
    if (part.heading !== undefined) lines.push(`## ${oneLine(part.heading)}`, '');
    if (text) lines.push(text);
  }
  if (shortened) lines.push('', `(The index keeps the start of this page's later sections; read the whole page at ${markdownUrl(url)}.)`);
  return `${lines.join('\n')}\n`;
}

/**
 * Where a section's heading starts in the body, from `from` on: the heading followed by the start of its text (a
 * heading's words may also occur in the text before it), else the heading alone; -1 when the body was cut before it.
 */
function headingAt(content: string, from: number, heading: string, lead: string): number {
  const start = lead.slice(0, 40).trim();
  if (start) {
    const exact = content.indexOf(`${heading} ${start}`, from);
    if (exact >= 0) return exact;
  }
  // A section whose text is empty, or whose start the body cut through.
  const alone = content.indexOf(heading, from);
  return alone >= 0 && (!start || content.length - alone < heading.length + 1 + start.length) ? alone : -1;
}
