/**
 * A page of the index as Markdown, for a model to read (`get_page`, llms-full.txt): title, URL, description, then each
 * section under its heading, all from what the index stores (no file system, so it works on D1 as on Node).
 */
import type { StoredPage } from '../db/pages.js';
import { removeWordBreaks } from '../text/segment.js';

/** A stored section: heading, anchor, folded text (for matching), and its start as written (absent in old indexes). */
type SectionEntry = [heading: string, anchor: string, folded: string, lead?: string];

/**
 * The page as Markdown. The body is the indexed text (up to `maxContentLength` characters): it is split at each
 * section's heading where the text still holds it; the sections past the cut give the start of their text as stored,
 * and the page says where to read the rest.
 */
export function pageMarkdown(page: StoredPage, url: string): string {
  const clean = (text: string) => removeWordBreaks(text).trim();
  const lines = [`# ${clean(page.title)}`, '', `URL: ${url}`];
  const about = [page.type && `type: ${page.type}`, page.date && `date: ${page.date}`, page.tags && `tags: ${page.tags}`].filter(Boolean);
  if (about.length) lines.push(about.join(' · '));
  if (page.description) lines.push('', `> ${clean(page.description)}`);

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
    if (part.heading !== undefined) lines.push(`## ${clean(part.heading)}`, '');
    if (text) lines.push(text);
  }
  if (shortened) lines.push('', `(The index keeps the start of this page's later sections; read the whole page at ${url}.)`);
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
