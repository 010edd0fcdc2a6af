/**
 * A page of the index as Markdown, for a model to read (`get_page`, llms-full.txt, `<page>.md`): title, URL and
 * description, then the page's Markdown as its author wrote it (code blocks byte for byte), or one section of it with
 * the page's outline; all from what the index stores (no file system, so it works on D1 as on Node). A page pushed
 * without its Markdown (documents given to `pushIndex` by hand) is rendered from its indexed text, split at its
 * sections' headings.
 */
import type { StoredPage } from '../db/pages.js';
import type { OutlineEntry } from '../db/write-plan.js';
import { removeWordBreaks } from '../text/segment.js';
import { markdownLink, markdownText, markdownUrl, oneLine } from './markdown-text.js';


/** A page's stored outline, or none (a page without Markdown, or an outline that does not parse). */
export function outlineOf(page: Pick<StoredPage, 'outline'>): OutlineEntry[] {
  try {
    const parsed: unknown = JSON.parse(page.outline ?? '[]');
    return Array.isArray(parsed) ? (parsed as OutlineEntry[]) : [];
  } catch {
    return [];
  }
}

/**
 * The section of `markdown` under the heading whose anchor is `anchor`, from its heading to the next heading of the
 * same or a higher level (or the end), with that heading's outline entry; undefined when no heading has the anchor.
 */
export function sectionOf(markdown: string, outline: OutlineEntry[], anchor: string): { entry: OutlineEntry; text: string } | undefined {
  const at = outline.findIndex((h) => h[2] === anchor);
  if (at < 0) return undefined;
  const entry = outline[at]!;
  const next = outline.slice(at + 1).find((h) => h[0] <= entry[0]);
  return { entry, text: markdown.slice(entry[3], next ? next[3] : markdown.length).trimEnd() };
}

/**
 * The part of a page a search result points at, as written: the section under `anchor` when the result names one the
 * page has, else the page's opening (up to its first heading past the start), else (a page opening with its title
 * alone) the section that follows.
 */
export function resultSection(markdown: string, outline: OutlineEntry[], anchor?: string): string {
  const section = anchor ? sectionOf(markdown, outline, anchor) : undefined;
  if (section) return section.text;
  const next = outline.find((h) => h[3] > 0);
  const opening = markdown.slice(0, next ? next[3] : markdown.length).trim();
  if (opening && !/^#{1,6}(?:[ \t][^\n]*)?$/.test(opening)) return opening;
  // A page that opens with its title alone: the section after it.
  return next ? sectionOf(markdown, outline, next[2])!.text : opening;
}

/** The page's header: `# title`, its URL, type, date and tags, and its description, every field escaped on its line. */
function header(page: StoredPage, url: string): string[] {
  // The frontmatter's fields are text, escaped on one line each: they cannot start another page, a heading or a link.
  const lines = [`# ${markdownText(page.title)}`, '', `URL: ${markdownUrl(url)}`];
  const about = [page.type && `type: ${markdownText(page.type)}`, page.date && `date: ${markdownText(page.date)}`, page.tags && `tags: ${markdownText(page.tags)}`];
  if (about.some(Boolean)) lines.push(about.filter(Boolean).join(' · '));
  if (page.description) lines.push('', `> ${markdownText(page.description)}`);
  return lines;
}

/**
 * The page as Markdown: its header, then its Markdown as written. With `anchor` (a `#section` of the page's URL), that
 * section alone, after the page's outline (each heading a link to its section, indented by level); an anchor no
 * heading has gives the whole page, saying so.
 */
export function pageMarkdown(page: StoredPage, url: string, anchor?: string): string {
  if (page.markdown === null || page.markdown === undefined) return indexedTextMarkdown(page, url);
  const lines = header(page, url);
  const outline = outlineOf(page);
  const section = anchor ? sectionOf(page.markdown, outline, anchor) : undefined;
  if (anchor && !section) lines.push('', `(No section #${markdownText(anchor)} on this page: the whole page follows.)`);
  if (!section) return `${lines.join('\n')}\n\n${page.markdown}\n`;
  const top = Math.min(...outline.map((h) => h[0]));
  lines.push('', `Section: ${markdownLink(section.entry[1], `${url}#${section.entry[2]}`)}`, '', 'Outline of the page:', '');
  for (const [level, text, id] of outline) {
    lines.push(`${'  '.repeat(level - top)}- ${markdownLink(text, `${url}#${id}`)}${id === section.entry[2] ? ' (this section)' : ''}`);
  }
  return `${lines.join('\n')}\n\n---\n\n${section.text}\n`;
}

/** A stored section: heading, anchor, folded text (for matching), and its start as written (absent in old indexes). */
type SectionEntry = [heading: string, anchor: string, folded: string, lead?: string];

/**
 * A page pushed without its Markdown, from the indexed text (up to `maxContentLength` characters): it is split at each
 * section's heading where the text still holds it; the sections past the cut give the start of their text as stored,
 * and the page says where to read the rest.
 */
function indexedTextMarkdown(page: StoredPage, url: string): string {
  const clean = (text: string) => removeWordBreaks(text).trim();
  const lines = header(page, url);

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

/** The stored URLs a path may have been written as: with and without its trailing slash, encoded or not. */
export function pathVariants(path: string): string[] {
  const decoded = safeDecode(path);
  const forms = new Set<string>();
  for (const p of [path, decoded]) {
    const bare = p.length > 1 ? p.replace(/\/+$/, '') : p;
    forms.add(bare).add(bare === '/' ? bare : `${bare}/`);
  }
  return [...forms];
}

function safeDecode(path: string): string {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}
