/**
 * Runs of white space holding a line break: CR and LF (CommonMark's line endings), and what other readers take for one
 * (vertical tab, form feed, NEL, the Unicode line and paragraph separators).
 */
const LINE_BREAK = /\s*[\r\n\v\f\u0085\u2028\u2029][\s\u0085]*/g;

/**
 * `text` on one line: each run of white space holding a line break becomes one space, and the ends are trimmed. A
 * title is one line wherever it is shown (a result, a `# title` in Markdown), whatever its YAML said (`title: |`).
 */
export function oneLine(text: string): string {
  return text.replace(LINE_BREAK, ' ').trim();
}

/** {@link oneLine} without the trim, for a part of a line whose spaces at its ends belong to it. */
export function joinLines(text: string): string {
  return text.replace(LINE_BREAK, ' ');
}
