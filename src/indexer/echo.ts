/**
 * How a warning repeats a value from a file. Frontmatter is hostile input: a 400-byte YAML alias bomb parses to a
 * small graph of shared lists that `String()` expands to gigabytes (it once failed the whole run with `Invalid string
 * length` after 8.7 s and 1.7 GB), and a 100,000-character value made a 100,000-character warning line.
 */

/** The most characters of a value a warning repeats: enough to recognise it, never a page of it. */
export const ECHO_CHARS = 200;

/**
 * A value as a warning shows it: a string quoted, cut at {@link ECHO_CHARS} with a marker that says how long it was; a
 * number, boolean or date as written; anything else (a list, an object) by its kind and size alone, never stringified.
 */
export function echo(value: unknown): string {
  if (typeof value === 'string') return `"${echoText(value)}"`;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value === null || value === undefined) return String(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'an invalid date' : value.toISOString();
  if (Array.isArray(value)) return `a list of ${value.length.toLocaleString('en-US')} item${value.length === 1 ? '' : 's'}`;
  return 'an object';
}

/** Text as a warning repeats it: at most {@link ECHO_CHARS} characters, then `… (N characters)`. */
export function echoText(text: string): string {
  if (text.length <= ECHO_CHARS) return text;
  // Never split a surrogate pair at the cut.
  const cut = /[\uD800-\uDBFF]/.test(text[ECHO_CHARS - 1]!) ? ECHO_CHARS - 1 : ECHO_CHARS;
  return `${text.slice(0, cut)}… (${text.length.toLocaleString('en-US')} characters)`;
}
