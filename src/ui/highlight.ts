/**
 * `site-search/ui/highlight`: marks the searched words on the page a reader lands on from a result, and scrolls to the
 * first. A separate, opt-in module (the box itself stays small): pages that want it import it and call
 * {@link highlightSearchTerms}.
 *
 * The box (with its `highlight` attribute) adds the words to each result link as a query parameter
 * (`/docs/habitat?highlight=rivers#rivers-and-lakes`). A query parameter, not a `#:~:text=` fragment or a change to
 * the hash, so the page's own anchor still scrolls to its heading and the links work in every browser.
 *
 * @packageDocumentation
 */

/** Options of {@link highlightSearchTerms}. */
export interface HighlightOptions {
  /** The query parameter holding the words; the box's `highlight` attribute value. Default `highlight`. */
  param?: string;
  /** Where to mark words. Default the page's `<main>`, else `<body>`. */
  root?: Element | null;
  /** Scroll to the first mark, unless the URL's hash names an element (the page's anchor wins). Default true. */
  scroll?: boolean;
}

/** Text inside these is not page prose (or cannot hold a `<mark>`). */
const SKIP = /^(SCRIPT|STYLE|NOSCRIPT|TEXTAREA|INPUT|SELECT|OPTION|MARK|SVG|TEMPLATE|IFRAME|SITE-SEARCH)$/;
/** Scripts written without spaces between words: a word is matched anywhere, not only at a word's start. */
const UNSPACED = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Thai}]/u;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The most of `?highlight=` read: a link the box makes carries a query the endpoint accepted (100 characters, 8 words
 * by default), while anyone can link to a page with 50,000 words, which made a pattern that blocked the page for 32 s
 * and then failed to compile.
 */
export const MAX_HIGHLIGHT_CHARS = 512;
export const MAX_HIGHLIGHT_WORDS = 32;
/**
 * The most words marked on a page: a few short words that begin most words of a long page (`?highlight=pa+ab+ri+ot`)
 * made 30,000 marks and held the page for 0.8 s; the first thousand are what a reader looks at.
 */
export const MAX_HIGHLIGHT_MARKS = 1_000;

/**
 * A pattern for the words: each matches at the start of a word, case-insensitively, with any ending (the endpoint
 * matched `river` for `rivers`, so a plural's `s` is dropped from words longer than three letters).
 */
export function wordsPattern(query: string): RegExp | undefined {
  const read = [...query.slice(0, 2 * MAX_HIGHLIGHT_CHARS)].slice(0, MAX_HIGHLIGHT_CHARS).join('');
  const words = [...new Set(read.toLowerCase().split(/[\s"'()*:^+-]+/u))]
    .filter((w) => [...w].length > 1 || UNSPACED.test(w))
    .slice(0, MAX_HIGHLIGHT_WORDS);
  if (!words.length) return undefined;
  const alternatives = words
    .map((w) => (w.length > 3 && w.endsWith('s') ? w.slice(0, -1) : w))
    .sort((a, b) => b.length - a.length)
    .map((w) => (UNSPACED.test(w) ? escapeRegExp(w) : `(?<![\\p{L}\\p{N}])${escapeRegExp(w)}[\\p{L}\\p{N}]*`));
  return new RegExp(alternatives.join('|'), 'giu');
}

/**
 * Wraps each occurrence of the words of the page's `?highlight=` (or `param`) in `<mark data-site-search>` and scrolls
 * to the first one, unless the URL's hash names an element: a link to a section lands on its heading, as the browser
 * put it. Returns the marks (none when the parameter is absent).
 *
 * @example
 * ```js
 * import { highlightSearchTerms } from 'site-search/ui/highlight';
 * highlightSearchTerms();
 * ```
 */
export function highlightSearchTerms({ param = 'highlight', root = document.querySelector('main') ?? document.body, scroll = true }: HighlightOptions = {}): HTMLElement[] {
  const pattern = wordsPattern(new URLSearchParams(location.search).get(param) ?? '');
  if (!pattern || !root) return [];
  const texts: Text[] = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, {
    acceptNode: (node) =>
      node.nodeType === Node.TEXT_NODE ? NodeFilter.FILTER_ACCEPT : SKIP.test(node.nodeName.toUpperCase()) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_SKIP,
  });
  while (walker.nextNode()) texts.push(walker.currentNode as Text);
  const marks: HTMLElement[] = [];
  for (const text of texts) {
    if (marks.length >= MAX_HIGHLIGHT_MARKS) break;
    const value = text.data;
    const found = [...value.matchAll(pattern)].slice(0, MAX_HIGHLIGHT_MARKS - marks.length);
    if (!found.length) continue;
    const pieces: (Node | string)[] = [];
    let at = 0;
    for (const m of found) {
      const mark = document.createElement('mark');
      mark.dataset.siteSearch = '';
      mark.textContent = m[0];
      pieces.push(value.slice(at, m.index), mark);
      marks.push(mark);
      at = m.index + m[0].length;
    }
    pieces.push(value.slice(at));
    text.replaceWith(...pieces);
  }
  // A link to a section already lands on its heading, the more precise place: the browser's anchor scroll stands.
  const anchored = location.hash && document.getElementById(decodedHash());
  if (scroll && !anchored) marks[0]?.scrollIntoView({ block: 'center' });
  return marks;
}

/** The element id the URL's hash names; a malformed escape (`#%E0%A4%A`) is taken as written, as the browser does. */
function decodedHash(): string {
  const hash = location.hash.slice(1);
  try {
    return decodeURIComponent(hash);
  } catch {
    return hash;
  }
}
