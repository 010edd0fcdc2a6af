/**
 * A page's frontmatter, read as its author wrote it (docs/indexing.md, "Frontmatter"; docs/decisions.md, "Frontmatter
 * as authors write it"): the block between `---` (YAML) or `+++` (TOML) lines, a language named after the opening
 * fence (`---yaml`, `---toml`, `---json`) as gray-matter reads it, the keys site-search reads matched in any case
 * (`Draft: true` is a draft), and a block that is not valid YAML read entry by entry rather than dropped, so a typo in
 * one line neither publishes a page its author meant to hide nor loses its title. Every such reading is named in a
 * warning: the site's framework may read the page otherwise.
 */
import matter from 'gray-matter';
import { parse as parseToml } from 'smol-toml';
import { echoText } from './echo.js';

/** The keys a description is taken from, in order. */
export const DESCRIPTION_KEYS = ['description', 'subtitle', 'summary', 'excerpt'];
/** The keys a date is taken from, in order. */
export const DATE_KEYS = ['date', 'pubDate', 'publishDate', 'published', 'updated', 'modified'];
/** The keys that keep a page out of search. */
const SWITCH_KEYS = ['draft', 'search', 'pagefind'];
/** Every top-level key site-search reads, as the frameworks spell them. */
const READ_KEYS = ['title', ...DESCRIPTION_KEYS, 'tags', ...DATE_KEYS, 'emoji', 'slug', ...SWITCH_KEYS];

/** A page's frontmatter and what follows it. */
export interface Frontmatter {
  /** The block's keys as written (what a framework's schema checks, `frontmatter: 'starlight'`). */
  data: Record<string, unknown>;
  /** The keys site-search reads, under their own spelling ({@link READ_KEYS}), found in any case. */
  fields: Record<string, unknown>;
  body: string;
  /** Lines before the body (the block's), so warnings about the body name lines of the file. */
  bodyLine: number;
}

type Warn = (message: string, line?: number) => void;

/** A leading block between `---` (or `---yaml`, `--- toml`…) or `+++` lines, closed by the bare fence on a line of its own. */
const BLOCK = /^(---|\+\+\+)[ \t]*([A-Za-z]*)[ \t]*\r?\n((?:[\s\S]*?\r?\n)?)\1[ \t]*(?:\r?\n|$)/;

/** The languages read after an opening fence, by the name written there; YAML under `---` and TOML under `+++` by default. */
const LANGUAGES: Record<string, 'yaml' | 'toml' | 'json'> = { yaml: 'yaml', yml: 'yaml', toml: 'toml', json: 'json' };

/** Reads a page's frontmatter. Never throws: whatever cannot be read is a warning. */
export function readFrontmatter(raw: string, warn: Warn): Frontmatter {
  const source = raw.replace(/^\uFEFF/, '');
  const match = BLOCK.exec(source);
  if (!match) return { data: {}, fields: {}, body: source, bodyLine: 0 };
  const [block, fence, named = '', inner = ''] = match;
  const body = source.slice(block.length);
  const bodyLine = lineCount(block);
  const language = named ? LANGUAGES[named.toLowerCase()] : fence === '+++' ? 'toml' : 'yaml';
  if (named) {
    warn(
      language
        ? `frontmatter opened with "${fence}${named}": read as ${language.toUpperCase()}, as gray-matter reads it; Astro, Starlight and Next.js read only a bare "${fence}" (write "${fence}"), so the site may show it as text`
        : `frontmatter opened with "${fence}${echoText(named)}" is not read (only YAML, TOML and JSON are, and code is never run)${fence === '---' ? '; its own draft, search and pagefind lines are' : ''}`,
      1,
    );
  }
  // A block in another language (`---js`, which gray-matter would run) gives only the lines that keep the page out.
  if (!language) {
    const { data } = fence === '---' ? readEntries(inner) : { data: {} };
    const switches = Object.fromEntries(Object.entries(data).filter(([key]) => SWITCH_KEYS.includes(key.toLowerCase())));
    return { data: switches, fields: fieldsOf(switches, warn), body, bodyLine };
  }
  let data: Record<string, unknown>;
  try {
    data = parseBlock(language, inner);
  } catch (e) {
    // A YAML block whose whole does not parse is read entry by entry: its author meant every line it holds.
    const recovered = language === 'yaml' ? readEntries(inner) : { data: {}, keys: [] };
    const mark = (e as { mark?: { line?: number } }).mark;
    const kept = recovered.keys.length ? `read entry by entry: ${recovered.keys.map(echoText).join(', ')} (fix the YAML: the site's build may refuse it)` : 'indexed without it';
    warn(`invalid ${language.toUpperCase()} frontmatter (${echoText((e as Error).message.split('\n')[0]!)}); ${kept}`, mark?.line !== undefined ? mark.line + 1 : 1);
    data = recovered.data;
  }
  return { data, fields: fieldsOf(data, warn), body, bodyLine };
}

function parseBlock(language: 'yaml' | 'toml' | 'json', inner: string): Record<string, unknown> {
  const parsed: unknown =
    language === 'toml'
      ? parseToml(inner)
      : language === 'json'
        ? JSON.parse(inner)
        : // Only the block goes to gray-matter: it copies its whole input into a Buffer, which over 100,000 files grew the
          // process by hundreds of MB. Passing options also turns off its cache, which would keep every file in memory.
          matter(`---\n${inner}---\n`, {}).data;
  return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
}

/**
 * The keys site-search reads, found in any case: `Draft: true` keeps a page out as `draft: true` does (a page its
 * author meant to hide is never published because of a capital), `Title:` titles it. The spelling the frameworks read
 * wins when both are there. Each key read or ignored for its case is named in a warning: Astro, Starlight and most
 * frameworks read only their own spelling, so the site may show the page otherwise.
 */
function fieldsOf(data: Record<string, unknown>, warn: Warn): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  const byCase = new Map<string, string[]>();
  for (const key of Object.keys(data)) {
    const lower = key.toLowerCase();
    byCase.set(lower, [...(byCase.get(lower) ?? []), key]);
  }
  for (const key of READ_KEYS) {
    const written = byCase.get(key.toLowerCase()) ?? [];
    const others = written.filter((k) => k !== key);
    if (written.includes(key)) {
      fields[key] = data[key];
      for (const other of others) warn(`frontmatter ${echoText(other)}: ignored, ${key} is read (keys are read as the frameworks spell them)`);
    } else if (others.length) {
      fields[key] = data[others[0]!];
      warn(`frontmatter ${echoText(others[0]!)}: read as ${key} (write ${key}: Astro, Starlight and most frameworks read only that spelling, so the site may not)`);
    }
  }
  return fields;
}

/** The most entries of a broken block read one by one. */
const MAX_ENTRIES = 1_000;

/** A top-level entry of a YAML block: a key at the start of a line (not a comment, a list item or a quoted key). */
const ENTRY = /^(?![\s#-])([^:\r\n]+?)[ \t]*:(?:[ \t]|$)/;
/** A line that keeps a page out, at any depth and in any case, in a block that is not valid YAML. */
const SWITCH_LINE = /^[ \t]*(draft|search|pagefind)[ \t]*:[ \t]*(.*?)[ \t]*$/gim;

/**
 * A block that is not valid YAML as a whole, read entry by entry: each top-level key with the lines under it, parsed on
 * its own; a one-line entry YAML refuses (`title: Secret: notes`) is taken as the text written after its key. The first
 * of a key counts (YAML refuses a key twice). Then every `draft`, `search` or `pagefind` line, indented or not, in any
 * case, that keeps the page out does so: in a broken block its depth cannot be trusted, and hiding a page the author
 * meant to hide is the side to err on.
 */
function readEntries(inner: string): { data: Record<string, unknown>; keys: string[] } {
  const entries: string[][] = [];
  for (const line of inner.split(/\r?\n/)) {
    if (ENTRY.test(line)) entries.push([line]);
    else entries.at(-1)?.push(line);
  }
  const data: Record<string, unknown> = {};
  // A real block has a few dozen entries; a pasted log is not parsed line by line past this.
  for (const lines of entries.slice(0, MAX_ENTRIES)) {
    const key = ENTRY.exec(lines[0]!)![1]!.trim();
    if (key in data) continue;
    const value = entryValue(lines);
    if (value !== undefined) data[key] = value;
  }
  for (const [, key, value] of inner.matchAll(SWITCH_LINE)) {
    const read = entryValue([`${key}: ${value}`]);
    if (keepsOut(key!.toLowerCase(), read)) data[key!] = read;
  }
  return { data, keys: Object.keys(data) };
}

/** One entry's value: its lines parsed as YAML, else (one line) the text after its key; undefined when there is none. */
function entryValue(lines: string[]): unknown {
  try {
    const parsed = (matter(`---\n${lines.join('\n')}\n---\n`, {}).data ?? {}) as Record<string, unknown>;
    const value = Object.values(parsed)[0];
    return value ?? undefined;
  } catch {
    if (lines.filter((l) => l.trim()).length > 1) return undefined;
    const text = lines[0]!.slice(lines[0]!.indexOf(':') + 1).trim();
    return text || undefined;
  }
}

const TRUE_WORDS = new Set(['true', 'yes', 'on']);
const FALSE_WORDS = new Set(['false', 'no', 'off']);

/** Whether a switch's value keeps the page out: `draft` true, `search` or `pagefind` false (as booleans or their words). */
function keepsOut(key: string, value: unknown): boolean {
  const word = typeof value === 'string' ? value.trim().toLowerCase() : value;
  return key === 'draft' ? word === true || TRUE_WORDS.has(word as string) : word === false || FALSE_WORDS.has(word as string);
}

function lineCount(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
