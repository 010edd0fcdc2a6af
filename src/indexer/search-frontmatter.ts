/**
 * What a page's frontmatter says about search: `draft: true`, `search: false` or `pagefind: false` keeps it out,
 * `search: { boost }` weights it. Authors write these by hand, in YAML, where `search: "false"` (quoted) or `search: no` (YAML 1.1's
 * false, a string to the YAML 1.2 parser) is a string: each value that is not what the field takes is read the way
 * the author meant it where that is plain, and always named in a warning (docs/indexing.md, "Skipping").
 */
import { echo } from './echo.js';

/** The most a page's `search.boost` can raise (or, as its inverse, lower) it. */
export const MAX_BOOST = 10;

/** What the frontmatter asks of search: leave the page out, or its weight as stored (`''` for 1). */
export interface SearchIntent {
  skip: boolean;
  boost: string;
}

/** The keys `search:` takes as an object. */
const SEARCH_KEYS = new Set(['boost']);
/** Strings that YAML 1.1 (and people) read as false or true; the YAML 1.2 parser leaves them strings. */
const FALSE_WORDS = new Set(['false', 'no', 'off']);
const TRUE_WORDS = new Set(['true', 'yes', 'on']);

/** Reads `search` and `pagefind` from a page's frontmatter, warning (naming the field) about every value it had to interpret. */
export function searchIntent(data: Record<string, unknown>, warn: (message: string) => void): SearchIntent {
  const skip = [switchField('search', data.search, false, warn), switchField('pagefind', data.pagefind, false, warn)].includes(false);
  return { skip, boost: skip ? '' : searchObject(data.search, warn) };
}

/** Whether `draft:` leaves the page out: `true`, or a string that says true (with a warning, as for `search:`). */
export function isDraft(data: Record<string, unknown>, warn: (message: string) => void): boolean {
  return switchField('draft', data.draft, true, warn) === true;
}

/**
 * A field that keeps the page out when it is `out` (false for `search`, true for `draft`): a boolean as given, a
 * string that says one read as it says (with a warning), anything else a warning and no effect (`undefined`). An
 * object is `search:`'s own form.
 */
function switchField(field: string, value: unknown, out: boolean, warn: (message: string) => void): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === undefined || value === null || (field === 'search' && isObject(value))) return undefined;
  const word = typeof value === 'string' ? value.trim().toLowerCase() : '';
  const read = FALSE_WORDS.has(word) ? false : TRUE_WORDS.has(word) ? true : undefined;
  if (read !== undefined) {
    warn(`frontmatter ${field}: ${echo(value)} is a string, read as ${read}: the page is ${read === out ? 'not ' : ''}indexed (write ${field}: ${read}, without quotes)`);
    return read;
  }
  const takes = field === 'search' ? 'false or { boost: 2 }' : 'true or false';
  warn(`frontmatter ${field}: ${echo(value)} is not ${takes}; ignored, the page is indexed (write ${field}: ${out} to keep it out of search)`);
  return undefined;
}

/** `search:` as an object: its `boost` (from 1/10 to 10, else a warning and 1), and a warning for each other key. */
function searchObject(search: unknown, warn: (message: string) => void): string {
  if (!isObject(search)) return '';
  for (const key of Object.keys(search)) {
    if (!SEARCH_KEYS.has(key)) {
      warn(`frontmatter search.${echoKey(key)}: unknown key, ignored (search: takes boost; write search: false to keep the page out of search)`);
    }
  }
  if (!('boost' in search)) return '';
  const boost = search.boost;
  if (typeof boost === 'number' && boost >= 1 / MAX_BOOST && boost <= MAX_BOOST) return boost === 1 ? '' : String(boost);
  warn(`frontmatter search.boost: ${echo(boost)} is not a number from 0.1 to ${MAX_BOOST} (2 counts the page twice, 0.5 half); ranked as 1`);
  return '';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** A key as a warning names it: a hostile file's key can be long, so it is cut like any echoed value. */
function echoKey(key: string): string {
  return echo(key).slice(1, -1);
}
