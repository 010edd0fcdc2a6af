/**
 * The inline pass of Markdown/MDX → text (see text.ts): strips markup (emphasis, links, JSX/HTML tags, entities,
 * comments) from one prose run, keeping its words.
 */
import { echoText } from './echo.js';

/** Reports a problem at a 1-based line of the source. */
export type Warn = (line: number, message: string) => void;

// ---------------------------------------------------------------------------------------------------------------------
// Inline pass
// ---------------------------------------------------------------------------------------------------------------------

/** HTML elements rendered inline: removing them must not insert a space (`<em>un</em>likely` is one word). */
const INLINE_ELEMENTS = new Set([
  'a', 'abbr', 'b', 'bdi', 'bdo', 'cite', 'code', 'data', 'del', 'dfn', 'em', 'i', 'ins', 'kbd', 'mark', 'q', 's',
  'samp', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'u', 'var',
]);

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', shy: '', colon: ':', lbrace: '{', rbrace: '}',
  lcub: '{', rcub: '}', lsqb: '[', rsqb: ']', lpar: '(', rpar: ')', ast: '*', lowbar: '_', grave: '`', vert: '|',
  ndash: '\u2013', mdash: '\u2014', hellip: '\u2026', lsquo: '\u2018', rsquo: '\u2019', ldquo: '\u201c',
  rdquo: '\u201d', laquo: '\u00ab', raquo: '\u00bb', copy: '\u00a9', reg: '\u00ae', trade: '\u2122', times: '\u00d7',
  middot: '\u00b7', bull: '\u2022', larr: '\u2190', rarr: '\u2192', deg: '\u00b0', euro: '\u20ac', zwj: '', zwnj: '',
};

const PLAIN_TEXT = /[^\\`<{}[\]!&*_~\n]+/y;
const ENTITY = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z][A-Za-z0-9]{1,31}));/y;
const AUTOLINK = /<(?:[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*|[^\s@<>]+@[^\s@<>]+)>/y;
const TAG_NAME = /<(\/?)([A-Za-z][\w.:-]*)?/y;
const BLANK_LINE_AHEAD = /[ \t]*(?:\n|$)/y;
const NEXT_BLANK_LINE = /\n[ \t]*(?:\n|$)/g;
const MDX_COMMENT_OPEN = /\{[ \t]*\/\*/y;
const MDX_COMMENT_CLOSE = /\*\/\s*\}/g;
const LINK_DESTINATION = /^\s*<?(?:[A-Za-z][A-Za-z0-9+.-]*:|[/#.])/;
const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;
const WHITESPACE = /\s/;
const WORD_CHAR = /[\p{L}\p{N}]/u;
/** A JSX tag longer than this is treated as unclosed, which bounds the scan on bad input. */
const MAX_TAG_LENGTH = 10_000;

interface Delimiter {
  char: string;
  length: number;
  /** Index of the run in `out`; matched runs are blanked there. */
  index: number;
  canOpen: boolean;
  canClose: boolean;
}

interface Bracket {
  /** Index of the `[` (or `![`) in `out`, blanked when the brackets turn out to be a link. */
  index: number;
  /** Source offset just after the `[`, to read the link text as a reference label. */
  textStart: number;
}

/**
 * Strips inline markup from a run of prose lines.
 *
 * @param lineNumbers - The source line of each line of `src`, for warnings.
 */
/**
 * Longest run handed to the inline scanner at once. Its bracket and emphasis matching costs quadratic time on
 * thousands of unmatched delimiters in one run; longer runs are cut at a line break or a space, so a crafted page
 * costs linear time. Real paragraphs are far shorter, so real text is unaffected.
 */
const MAX_INLINE_RUN = 4_000;

export function renderInline(src: string, lineNumbers: readonly number[], refs: ReadonlySet<string>, warn: Warn): string {
  if (src.length <= MAX_INLINE_RUN) return new InlineScanner(src, lineNumbers, refs, warn).render();
  const out: string[] = [];
  let start = 0;
  let line = 0;
  while (start < src.length) {
    let end = Math.min(src.length, start + MAX_INLINE_RUN);
    let separator = '';
    if (end < src.length) {
      // Search only this piece: searching back from `end` would scan the whole run again for every piece.
      const piece = src.slice(start, end);
      const cut = Math.max(piece.lastIndexOf('\n'), piece.lastIndexOf(' '));
      if (cut > 0) [end, separator] = [start + cut + 1, ' '];
    }
    const chunk = src.slice(start, end);
    const lines = chunk.split('\n').length - 1;
    const chunkLines = lineNumbers.slice(line, line + lines + 1);
    out.push(new InlineScanner(chunk, chunkLines.length ? chunkLines : [lineNumbers[lineNumbers.length - 1] ?? 1], refs, warn).render(), separator);
    line += lines;
    start = end;
  }
  return out.join('');
}

/** A single left-to-right scan; output goes to `out` in pieces so emphasis and link brackets can be blanked later. */
class InlineScanner {
  private readonly src: string;
  private readonly lineNumbers: readonly number[];
  private readonly refs: ReadonlySet<string>;
  private readonly warn: Warn;
  private pos = 0;
  private readonly out: string[] = [];
  private delimiters: Delimiter[] = [];
  private brackets: Bracket[] = [];
  /** Memoised end of the current paragraph (see {@link paragraphEnd}). */
  private paraEnd = -1;

  constructor(src: string, lineNumbers: readonly number[], refs: ReadonlySet<string>, warn: Warn) {
    this.src = src;
    this.lineNumbers = lineNumbers;
    this.refs = refs;
    this.warn = warn;
  }

  render(): string {
    const src = this.src;
    while (this.pos < src.length) {
      PLAIN_TEXT.lastIndex = this.pos;
      const plain = PLAIN_TEXT.exec(src);
      if (plain) {
        this.out.push(plain[0]);
        this.pos += plain[0].length;
        continue;
      }
      this.special(src[this.pos]!);
    }
    this.endParagraph();
    return this.out.join('');
  }

  private special(c: string): void {
    switch (c) {
      case '\\':
        return this.escape();
      case '`':
        return this.codeSpan();
      case '<':
        return this.angle();
      case '{':
        return this.brace();
      case '}':
        // The closing brace of an MDX expression; the expression's own text is kept.
        this.pos++;
        return;
      case '!':
        if (this.src[this.pos + 1] === '[') return this.openBracket(2);
        return this.literal(1);
      case '[':
        return this.openBracket(1);
      case ']':
        return this.closeBracket();
      case '&':
        return this.entity();
      case '\n':
        return this.newline();
      default:
        return this.delimiterRun(c);
    }
  }

  private literal(length: number): void {
    this.out.push(this.src.slice(this.pos, this.pos + length));
    this.pos += length;
  }

  private escape(): void {
    const next = this.src[this.pos + 1];
    if (next !== undefined && ASCII_PUNCTUATION.test(next)) {
      this.out.push(next);
      this.pos += 2;
    } else if (next === '\n') {
      this.pos++; // A hard line break; the newline itself is handled next.
    } else {
      this.literal(1);
    }
  }

  private newline(): void {
    this.out.push('\n');
    this.pos++;
    BLANK_LINE_AHEAD.lastIndex = this.pos;
    if (BLANK_LINE_AHEAD.test(this.src)) this.endParagraph();
  }

  /** Code spans keep their content verbatim: no entity decoding, no tag or emphasis stripping. */
  private codeSpan(): void {
    const src = this.src;
    let end = this.pos;
    while (src[end] === '`') end++;
    const ticks = end - this.pos;
    const limit = this.paragraphEnd();
    let at = src.indexOf('`', end);
    while (at !== -1 && at < limit) {
      let runEnd = at;
      while (src[runEnd] === '`') runEnd++;
      // Only a run of exactly the same length closes the span (``a`b`` contains a backtick).
      if (runEnd - at === ticks) {
        this.out.push(codeSpanText(src.slice(end, at)));
        this.pos = runEnd;
        return;
      }
      at = src.indexOf('`', runEnd);
    }
    // No closing run of the same length: the backticks are literal text.
    this.literal(ticks);
  }

  /** `<` starts an HTML comment, an autolink, a JSX/HTML tag, or is just a less-than sign. */
  private angle(): void {
    const src = this.src;
    if (src.startsWith('<!--', this.pos)) return this.skipUntil('-->', 'unclosed HTML comment');

    AUTOLINK.lastIndex = this.pos;
    const autolink = AUTOLINK.exec(src);
    if (autolink) {
      // A bare URL is noise in a search index.
      this.out.push(' ');
      this.pos += autolink[0].length;
      return;
    }

    TAG_NAME.lastIndex = this.pos;
    const tag = TAG_NAME.exec(src);
    const name = tag?.[2];
    const isFragment = src[TAG_NAME.lastIndex] === '>' && name === undefined;
    if (!tag || (name === undefined && !isFragment)) return this.literal(1);

    const end = findTagEnd(src, this.pos + tag[0].length);
    if (end === -1) {
      this.warnAt(this.pos, `unclosed JSX tag <${echoText(`${tag[1]}${name ?? ''}`)}>`);
      return this.dropRestOfLine();
    }
    this.out.push(name !== undefined && INLINE_ELEMENTS.has(name) ? '' : ' ');
    this.pos = end;
  }

  /** `{/* … *\/}` is an MDX comment and disappears; any other `{` opens an expression whose text is kept. */
  private brace(): void {
    const src = this.src;
    MDX_COMMENT_OPEN.lastIndex = this.pos;
    if (!MDX_COMMENT_OPEN.test(src)) {
      this.pos++;
      return;
    }
    MDX_COMMENT_CLOSE.lastIndex = MDX_COMMENT_OPEN.lastIndex;
    const end = MDX_COMMENT_CLOSE.exec(src);
    if (!end) {
      this.warnAt(this.pos, 'unclosed MDX comment');
      return this.dropRestOfLine();
    }
    this.out.push(' ');
    this.pos = end.index + end[0].length;
  }

  private skipUntil(terminator: string, unclosedMessage: string): void {
    const end = this.src.indexOf(terminator, this.pos);
    if (end === -1) {
      this.warnAt(this.pos, unclosedMessage);
      return this.dropRestOfLine();
    }
    this.out.push(' ');
    this.pos = end + terminator.length;
  }

  /** Recovery for an unclosed construct: its first line is most likely markup, what follows most likely prose. */
  private dropRestOfLine(): void {
    const end = this.src.indexOf('\n', this.pos);
    this.pos = end === -1 ? this.src.length : end;
  }

  private entity(): void {
    ENTITY.lastIndex = this.pos;
    const m = ENTITY.exec(this.src);
    const decoded = m ? decodeEntity(m) : undefined;
    if (m === null || decoded === undefined) return this.literal(1);
    this.out.push(decoded);
    this.pos += m[0].length;
  }

  private openBracket(length: number): void {
    this.brackets.push({ index: this.out.length, textStart: this.pos + length });
    this.literal(length);
  }

  /** Resolves `]`: an inline link `](…)`, a reference link `][ref]`/`[ref]`, or a literal bracket. */
  private closeBracket(): void {
    const opener = this.brackets.pop();
    if (!opener) return this.strayLinkEnd();
    const src = this.src;
    const after = this.pos + 1;
    const label = normalizeLabel(src.slice(opener.textStart, this.pos));

    let skipTo = -1;
    if (src[after] === '(') {
      skipTo = findClosingParen(src, after, this.paragraphEnd());
    } else if (src[after] === '[') {
      const close = src.indexOf(']', after);
      const rawRef = close === -1 ? '\n' : src.slice(after + 1, close);
      // `[text][ref]` is taken as a link even when `ref` is undefined (a translator's dropped definition), but the
      // collapsed `[text][]` only when defined, since `[string, string][]` is a type, not a link.
      if (!rawRef.includes('\n') && (rawRef.trim() !== '' || this.refs.has(label))) skipTo = close + 1;
    } else if (this.refs.has(label)) {
      skipTo = after;
    }

    if (skipTo === -1) return this.literal(1);
    // Keep the link text (or image alt text); drop the brackets and the destination.
    this.out[opener.index] = '';
    this.pos = skipTo;
  }

  /**
   * A `](url)` whose `[` is missing: MDX would print it literally, but the URL is noise in a search index, so a
   * destination that looks like a URL or path is dropped anyway.
   */
  private strayLinkEnd(): void {
    const after = this.pos + 1;
    if (this.src[after] === '(' && LINK_DESTINATION.test(this.src.slice(after + 1, after + 12))) {
      const end = findClosingParen(this.src, after, this.paragraphEnd());
      if (end !== -1) {
        this.pos = end;
        return;
      }
    }
    this.literal(1);
  }

  /** Records a run of `*`, `_` or `~`; matching runs are removed at the end of the paragraph. */
  private delimiterRun(c: string): void {
    const src = this.src;
    let end = this.pos;
    while (src[end] === c) end++;
    const before = this.pos === 0 ? '\n' : src[this.pos - 1]!;
    const after = src[end] ?? '\n';
    const length = end - this.pos;
    const spaceBefore = WHITESPACE.test(before);
    const spaceAfter = WHITESPACE.test(after);
    // `_` inside a word (snake_case) is never emphasis; `*` and `~~` may be, so only whitespace limits them.
    const intraword = c === '_';
    this.delimiters.push({
      char: c,
      length,
      index: this.out.length,
      canOpen: !spaceAfter && !(intraword && WORD_CHAR.test(before)),
      canClose: !spaceBefore && !(intraword && WORD_CHAR.test(after)),
    });
    this.literal(length);
  }

  /** Pairs emphasis delimiters (closest opener first) and blanks each matched pair. */
  private endParagraph(): void {
    const delims = this.delimiters;
    for (let closer = 0; closer < delims.length; closer++) {
      const close = delims[closer]!;
      if (!close.canClose) continue;
      for (let opener = closer - 1; opener >= 0; opener--) {
        const open = delims[opener]!;
        if (!open.canOpen || open.char !== close.char) continue;
        if (close.char === '~' && open.length !== close.length) continue;
        this.out[open.index] = '';
        this.out[close.index] = '';
        // Everything between a matched pair is settled; a delimiter inside cannot pair with one outside.
        delims.splice(opener, closer - opener + 1);
        closer = opener - 1;
        break;
      }
    }
    // An unpaired `**` is a typo'd emphasis (`**Type : **`, a lost opener), never meaningful prose text.
    for (const d of delims) if (d.char === '*' && d.length >= 2) this.out[d.index] = '';
    this.delimiters = [];
    this.brackets = [];
    this.paraEnd = -1;
  }

  /** Offset of the next blank line (or the end of the run): code spans and links never cross it. */
  private paragraphEnd(): number {
    if (this.paraEnd >= this.pos) return this.paraEnd;
    NEXT_BLANK_LINE.lastIndex = this.pos;
    const m = NEXT_BLANK_LINE.exec(this.src);
    this.paraEnd = m ? m.index : this.src.length;
    return this.paraEnd;
  }

  private warnAt(offset: number, message: string): void {
    let line = 0;
    for (let at = this.src.indexOf('\n'); at !== -1 && at < offset; at = this.src.indexOf('\n', at + 1)) line++;
    this.warn(this.lineNumbers[line] ?? this.lineNumbers[this.lineNumbers.length - 1] ?? 1, message);
  }
}

/**
 * Finds the `>` that ends a JSX/HTML tag, skipping quoted attribute values and `{…}` expressions (which may contain
 * `>`, quotes and newlines).
 *
 * @returns The offset after the `>`, or -1 when the tag is unclosed.
 */
export function findTagEnd(src: string, from: number): number {
  const limit = Math.min(src.length, from + MAX_TAG_LENGTH);
  let depth = 0;
  for (let i = from; i < limit; i++) {
    const c = src[i];
    if (c === '"' || c === "'" || (c === '`' && depth > 0)) {
      const close = src.indexOf(c, i + 1);
      if (close === -1 || close >= limit) return -1;
      i = close;
    } else if (c === '{') {
      depth++;
    } else if (c === '}') {
      depth--;
    } else if (c === '>' && depth <= 0) {
      return i + 1;
    } else if (c === '<' && depth <= 0) {
      // A new tag starting before this one closed: this one is unclosed (its `>` must not be borrowed).
      return -1;
    }
  }
  return -1;
}

/** @returns The offset after the `)` that closes the link destination opened at `open`, or -1. */
function findClosingParen(src: string, open: number, limit: number): number {
  let depth = 0;
  for (let i = open; i < limit; i++) {
    const c = src[i];
    if (c === '\\') i++;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i + 1;
  }
  return -1;
}

/** CommonMark: line endings become spaces, and one space of padding (`\`\` a\`b \`\``) is stripped from each side. */
function codeSpanText(raw: string): string {
  const text = raw.replace(/\n/g, ' ');
  const padded = text.length > 2 && text.startsWith(' ') && text.endsWith(' ') && text.trim() !== '';
  return padded ? text.slice(1, -1) : text;
}

function decodeEntity(m: RegExpExecArray): string | undefined {
  const [, decimal, hex, name] = m;
  if (name !== undefined) return NAMED_ENTITIES[name];
  const code = decimal !== undefined ? Number.parseInt(decimal, 10) : Number.parseInt(hex ?? '', 16);
  const valid = code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff);
  return valid ? String.fromCodePoint(code) : undefined;
}

/** A link reference label as CommonMark matches it: trimmed, inner whitespace collapsed, case folded. */
export function normalizeLabel(label: string): string {
  return label.trim().replace(/\s+/g, ' ').toLowerCase();
}
