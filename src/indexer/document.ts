import { basename, dirname } from 'node:path';
import type { ResolvedConfig } from '../options/options.js';
import { segmentUnspaced } from '../text/segment.js';
import { hasInvisible, MAX_TAG_LENGTH, normalizeTag, NOT_IN_A_TAG, showInvisible } from '../text/tags.js';
import { codePointLength } from '../text/code-points.js';
import { stripSentinels } from '../text/marks.js';
import type { SourceFile } from './collect.js';
import type { FrontmatterChecks, FrontmatterRules } from './frontmatter-rules.js';
import { toIsoDay } from './dates.js';
import { echo, echoText } from './echo.js';
import { DATE_KEYS, DESCRIPTION_KEYS, readFrontmatter } from './frontmatter.js';
import { isDraft, searchIntent } from './search-frontmatter.js';
import { cutOnWord } from '../text/cut.js';
import { oneLine } from '../text/one-line.js';
import { bodyOf, deepChars, deepText, remainingWords, sectionsOf, type IndexSection, type PreparedSection } from './sections.js';

export { cutOnWord };
import type { PageToWrite } from '../db/write-plan.js';
import { pathToSlug, slugToUrl } from './slug.js';
import { firstHeading, markdownSections, type TextSection } from './text.js';
import { MARKDOWN_MAX_CHARS, markdownAsWritten } from './markdown-as-written.js';

/** One row of the index, as the indexer builds it: the page fields a push stores ({@link PageToWrite}). */
export interface IndexDocument extends PageToWrite {
  /** The page's headed sections (stored in their own table, not in `search_index`). */
  sections: IndexSection[];
}

/** Something worth telling the user about a file, with the line it concerns when known. */
export interface IndexWarning {
  file: string;
  line?: number;
  message: string;
}

/** What became of one file. */
export type ParsedFile =
  | { status: 'indexed'; document: IndexDocument; truncated: boolean; warnings: IndexWarning[] }
  | { status: 'skipped'; reason: 'draft' | 'search-false' | 'rejected-frontmatter'; warnings: IndexWarning[] };

/** How a warning names the rules that rejected a page. */
const RULES_NAME: Record<FrontmatterRules, string> = { starlight: "Starlight's docs schema" };

/**
 * Turns one Markdown/MDX file into an index row, following the frontmatter rules in docs/indexing.md. Never throws on
 * bad content: invalid YAML frontmatter is reported as a warning and the body is indexed without it (but for the lines
 * that keep the page out of search).
 */
export function parseDocument(file: SourceFile, raw: string, config: ResolvedConfig, checks: FrontmatterChecks = {}): ParsedFile {
  const warnings: IndexWarning[] = [];
  const warn = (message: string, line?: number) => warnings.push({ file: file.path, line, message });

  const { data: written, fields: data, body, bodyLine } = readFrontmatter(raw, warn);
  const rules = file.source.frontmatter;
  // The framework's schema sees the keys as written, as the framework's build will.
  const problem = rules ? checks[rules]?.(written) : undefined;
  if (problem) {
    warn(`frontmatter ${problem}: ${RULES_NAME[rules!]} rejects it, so the page is not built; skipped (fix the field)`);
    return { status: 'skipped', reason: 'rejected-frontmatter', warnings };
  }
  if (isDraft(data, warn)) return { status: 'skipped', reason: 'draft', warnings };
  // Starlight's (and Pagefind's) own way to keep a page out of search means the same here.
  const intent = searchIntent(data, warn);
  if (intent.skip) return { status: 'skipped', reason: 'search-false', warnings };

  // One extraction serves the body and the sections. Words in Chinese, Japanese, Thai… get invisible breaks between
  // them, so each is findable (see segment.ts).
  // Parts are prepared as they are extracted, and extraction stops past PAGE_TEXT_FACTOR times the body: the rest of a
  // page that long (a pasted log, a generated reference) is never rendered or segmented, and a warning says so.
  const prepared = new WeakMap<TextSection, PreparedSection>();
  let longHeadings = 0;
  const prepare = (p: TextSection): PreparedSection => {
    let part = prepared.get(p);
    if (!part) {
      const raw = p.heading.length > FIELD_LIMITS.heading ? (longHeadings++, cutOnWord(p.heading, FIELD_LIMITS.heading).content) : p.heading;
      prepared.set(p, (part = { raw, heading: segmentUnspaced(clean(raw)), text: segmentUnspaced(clean(p.text)) }));
    }
    return part;
  };
  let length = 0;
  const parts = markdownSections(body, {
    onWarning: (w) => warn(w.message, w.line + bodyLine),
    enough: (p) => {
      const part = prepare(p);
      length += part.heading.length + part.text.length;
      return length > config.maxContentLength * PAGE_TEXT_FACTOR;
    },
  }).map(prepare);
  if (length > config.maxContentLength * PAGE_TEXT_FACTOR) {
    warn(`over ${(config.maxContentLength * PAGE_TEXT_FACTOR).toLocaleString('en-US')} characters of text; what follows is not searchable`);
  }
  if (longHeadings > 0) warn(`${longHeadings} heading${longHeadings > 1 ? 's' : ''} over ${FIELD_LIMITS.heading} characters cut to that length`);
  const { content, truncated } = cutOnWord(bodyOf(parts), config.maxContentLength);
  const deep = truncated ? deepText(parts, content.length, deepChars(config.maxContentLength)) : '';
  // Every other word of the page, once, so that any word on it finds it.
  const rest = truncated ? remainingWords(parts, `${content} ${deep}`, deepChars(config.maxContentLength)) : { words: '', left: 0 };
  if (rest.left > 0) warn(`${rest.left.toLocaleString('en-US')} words past what the index keeps of a page are not searchable (raise maxContentLength to keep them)`);
  const more = [deep, rest.words].filter(Boolean).join(' ');
  const capped = (field: keyof typeof FIELD_LIMITS, text: string) => capField(field, text, warn);
  const slug = frontmatterSlug(data.slug, warn) ?? pathToSlug(file.relativePath);
  // The page as its author wrote it, for assistants (get_page, llms-full.txt, <page>.md); cleaned as every stored text is.
  const asWritten = markdownAsWritten(clean(body));
  if (asWritten.truncated) warn(`over ${MARKDOWN_MAX_CHARS.toLocaleString('en-US')} characters of Markdown; assistants get the start of the page (docs/indexing.md)`);

  return {
    status: 'indexed',
    truncated,
    warnings,
    document: {
      title: capped('title', segmentUnspaced(oneLine(clean(stringField(data.title) ?? firstHeading(body) ?? titleFromPath(file.relativePath))))),
      description: capped('description', segmentUnspaced(clean(DESCRIPTION_KEYS.map((k) => stringField(data[k])).find(Boolean) ?? ''))),
      content,
      tags: capped('tags', segmentUnspaced(clean(tagsField(data.tags, warn)))),
      url: slugToUrl(file.source.url, slug),
      site: config.site,
      type: file.source.type,
      date: dateField(data, warn),
      emoji: capped('emoji', clean(stringField(data.emoji) ?? file.source.emoji)),
      boost: intent.boost,
      more,
      sections: sectionsOf(parts, config.maxContentLength * PAGE_TEXT_FACTOR),
      markdown: asWritten.markdown,
      outline: asWritten.outline,
    },
  };
}

/**
 * How much text of a page is read, as a multiple of `maxContentLength` (200,000 characters by default): every word of
 * any real page (the longest of the Astro docs has about 60,000), with a bound for a page that is a pasted log.
 */
export const PAGE_TEXT_FACTOR = 25;

/**
 * The most characters kept in each field besides the body (which `maxContentLength` bounds). docs/indexing.md promises title,
 * description and tags in full, and every real page is: these limits are far above any real title, description, tag
 * list or heading. A page over them is a mistake (a pasted log, generated frontmatter), and its row must still fit in
 * one D1 statement (100,000 bytes) beside an 8,000-character body, at up to 3 bytes a character.
 */
export const FIELD_LIMITS = { title: 1_000, description: 10_000, tags: 5_000, emoji: 64, heading: 1_000, slug: 2_000 } as const;

/** `text` cut to its field's limit, with a warning that names the field when it was longer. */
function capField(field: keyof typeof FIELD_LIMITS, text: string, warn: (message: string) => void): string {
  const limit = FIELD_LIMITS[field];
  if (text.length <= limit) return text;
  warn(`${field} is ${text.length.toLocaleString('en-US')} characters; cut to ${limit}`);
  return cutOnWord(text, limit).content;
}

/**
 * A frontmatter `slug` as a path under the source's URL pattern: no control characters, backslashes read as the
 * slashes browsers take them for, no empty, `.` or `..` segments. So `"\\evil.example"` or `"//evil.example"` can
 * never make a result URL that names another host; a slug that had to change is reported.
 */
function frontmatterSlug(value: unknown, warn: (message: string) => void): string | undefined {
  if (typeof value !== 'string' || !value.trim()) return undefined;
  const given = value.trim();
  const slug = given
    .replace(/\p{Cc}/gu, '')
    .replace(/\\/g, '/')
    .split('/')
    .filter((segment) => segment.trim() !== '' && segment !== '.' && segment !== '..')
    .join('/');
  if (slug !== given.replace(/^\/+|\/+$/g, '')) {
    warn(`frontmatter slug ${echo(given)} is not a plain path; using ${echo(slug)} (slugs are paths under the source's url, without "\\", "//", "." or "..")`);
  }
  return capField('slug', slug, warn) || undefined;
}

function stringField(value: unknown): string | undefined {
  if (typeof value === 'string' && value.trim()) return value;
  if (typeof value === 'number') return String(value);
  return undefined;
}

/**
 * The page's tags, space-separated, each in the one form the `tags` filter compares (NFC, invisible and
 * direction-changing characters removed, with a warning). A string is a list: split at commas and spaces, as it always
 * was. An item of a YAML list is one tag: one holding a comma or a space, which the `tags=` filter would split into
 * others, is left out with a warning (docs/decisions.md, "Tags are values").
 */
function tagsField(value: unknown, warn: (message: string) => void): string {
  const given = Array.isArray(value) ? value.filter((t) => typeof t === 'string' || typeof t === 'number').map(String) : typeof value === 'string' ? [value] : [];
  const tags: string[] = [];
  for (const item of given) {
    if (hasInvisible(item)) warn(`frontmatter tags: "${echoText(showInvisible(item))}" holds invisible or text-direction characters; they are removed`);
    const tag = normalizeTag(item);
    if (Array.isArray(value) && NOT_IN_A_TAG.test(tag)) {
      warn(`frontmatter tags: "${echoText(tag)}" holds a comma or a space, which the tags filter splits at; left out (write it as one word, e.g. "${echoText(tag.split(NOT_IN_A_TAG).filter(Boolean).join('-'))}")`);
      continue;
    }
    for (const one of tag.split(/[,\s]+/u).filter(Boolean)) {
      // Longer than the `tags` filter accepts: its chip would answer 400 ("Search is unavailable" in the box).
      if (codePointLength(one) > MAX_TAG_LENGTH) warn(`frontmatter tags: "${echoText(one)}" is over ${MAX_TAG_LENGTH} characters, more than the tags filter accepts; left out (shorten it)`);
      else tags.push(one);
    }
  }
  return [...new Set(tags)].join(' ');
}

/** The first date key holding a real date; each invalid one before it gets a warning. */
function dateField(data: Record<string, unknown>, warn: (message: string) => void): string {
  for (const key of DATE_KEYS) {
    const value = data[key];
    if (value === undefined || value === null || value === '') continue;
    const day = toIsoDay(value);
    if (day) return day;
    warn(`frontmatter ${key}: ${echo(value)} is not a date (use YYYY-MM-DD); it is ignored`);
  }
  return '';
}

/** `guides/getting-started.mdx` → `Getting started`; an `index` file takes its folder's name. */
function titleFromPath(relativePath: string): string {
  let name = basename(relativePath).replace(/\.(md|mdx)$/i, '');
  const folder = basename(dirname(relativePath));
  if (name.toLowerCase() === 'index' && folder !== '.' && folder !== '') name = folder;
  const words = name.replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * Makes text safe to store anywhere (a SQLite file or a D1 SQL literal): no NUL or other control characters (C0 but
 * tab and line breaks, DEL, C1: no text needs them, and `U+009B` is a terminal escape), no lone surrogates, no snippet
 * sentinels. Bidirectional controls stay: right-to-left pages use them (docs/decisions.md).
 */
export function clean(text: string): string {
  // eslint-disable-next-line no-control-regex
  return stripSentinels(text.toWellFormed()).replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g, '');
}

