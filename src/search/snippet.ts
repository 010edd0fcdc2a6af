/**
 * Snippet markup. FTS5's snippet() wraps matches in two private-use characters instead of `<mark>`, the whole text is
 * HTML-escaped, and only then are the sentinels turned into `<mark>`/`</mark>`: documentation is full of `<script>`
 * and `<img onerror>` in code samples, and a snippet must never carry them as markup.
 */
import { MARK_CLOSE, MARK_OPEN } from '../text/marks.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** What escapeSnippet rewrites, in one pass over the text: the HTML specials and the two sentinels. */
const SPECIALS = new RegExp(`[&<>"'${MARK_OPEN}${MARK_CLOSE}]`, 'g');

/**
 * HTML-escapes text; the snippet sentinels become `<mark>` pairs. Highlights that touch (the words of a segmented
 * Chinese phrase) become one.
 */
export function escapeSnippet(raw: string): string {
  let open = false;
  // Pair sentinels strictly so a stray one in stored text cannot leave a <mark> unclosed.
  const marked = raw.replaceAll(MARK_CLOSE + MARK_OPEN, '').replace(SPECIALS, (c) => {
    if (c === MARK_OPEN) {
      if (open) return '';
      open = true;
      return '<mark>';
    }
    if (c === MARK_CLOSE) {
      if (!open) return '';
      open = false;
      return '</mark>';
    }
    return ESCAPES[c]!;
  });
  return open ? `${marked}</mark>` : marked;
}
