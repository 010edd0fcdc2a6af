/**
 * Frontmatter and other index text placed into the Markdown that assistants read (llms.txt, llms-full.txt, `get_page`,
 * the tools' text), so that it stays text: a title, description or tag can neither break its line (and start a page, a
 * heading or a list of its own) nor open a link, an image, a code span or HTML. The page's own body is not passed
 * through here: it is the author's Markdown, and stays as written.
 */
import { joinLines, oneLine as lines } from '../text/one-line.js';
import { removeWordBreaks } from '../text/segment.js';

/**
 * Characters that open inline structure (CommonMark, GFM): the backslash (it would escape what follows, such as the `]`
 * closing a link's text), code spans, emphasis and strikethrough, link and image brackets, HTML and autolinks (`<`),
 * and `&` where it starts an entity (`&#91;` is a `[` to a renderer). Parentheses mean something only after a `]`, which
 * is escaped; `>`, `#`, `-`, `+` and digits only at the start of a line, where this text never stands.
 */
const INLINE_SYNTAX = /[\\`*_[\]<~]|&(?=#?[A-Za-z0-9]+;)/g;

/** `text` on one line (see src/text/one-line.ts), without the word breaks the index keeps in unspaced scripts. */
export function oneLine(text: string): string {
  return lines(removeWordBreaks(text));
}

/**
 * `text` as literal Markdown text on one line (a title, a description, a tag, a plain snippet): every character that
 * could open inline structure is backslash-escaped, so a renderer shows it and a model reads it as written.
 * A closing run of `#` (which would end a `# title` line's heading early) is escaped too.
 */
export function markdownText(text: string): string {
  return escapeInline(text)
    .trim()
    .replace(/(^|\s)(#+)$/, '$1\\$2');
}

/** {@link markdownText} for a part of a line (spaces at its ends kept): line breaks become spaces, syntax is escaped. */
export function escapeInline(text: string): string {
  return joinLines(removeWordBreaks(text)).replace(INLINE_SYNTAX, '\\$&');
}

/**
 * A URL as a link's destination or on a line of its own: white space, parentheses, angle brackets and backslashes
 * percent-encoded (the parser's URL leaves `(` and `)` as they are, and a `)` would end the destination early, leaving
 * the rest of the address to be read as more Markdown). The address is the same one to a browser.
 */
export function markdownUrl(url: string): string {
  return url.replace(/[\s()<>\\]/g, (c) => (c === '(' ? '%28' : c === ')' ? '%29' : encodeURIComponent(c)));
}

/** `[text](url)`, both made safe. */
export function markdownLink(text: string, url: string): string {
  return `[${markdownText(text)}](${markdownUrl(url)})`;
}
