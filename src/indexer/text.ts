/**
 * Markdown/MDX → plain searchable text.
 *
 * This is deliberately not an MDX parser: a real one throws on the malformed JSX that turns up in any large corpus and
 * is about a hundred times slower. Instead a line-based block pass separates code, frontmatter, ESM and prose, and an
 * inline scanner strips markup from each prose run. Both passes degrade gracefully: anything they cannot make sense of
 * is kept (or dropped to the end of its line) and reported through `onWarning`, never thrown.
 */
import { stripSentinels } from '../search/snippet.js';

/** A problem found in the source; extraction carries on regardless. */
export interface TextWarning {
  /** 1-based line of the source where the offending construct starts. */
  line: number;
  message: string;
}

/** Options for {@link markdownToText}. */
export interface TextOptions {
  /** Called for each malformed construct (unclosed code fence, JSX tag, comment…). */
  onWarning?: (warning: TextWarning) => void;
}

type Warn = (line: number, message: string) => void;

/**
 * Converts a Markdown/MDX document to plain text for the search index.
 *
 * Frontmatter, ESM `import`/`export` blocks, JSX/HTML tags and their attributes, comments, link destinations and
 * Markdown punctuation are removed; prose, link text, image alt text, table cells and code (fenced and inline) are
 * kept. Entities are decoded, the snippet sentinels U+E000/U+E001 are removed and whitespace is collapsed to single
 * spaces.
 *
 * Never throws on any input: malformed constructs are handled on a best-effort basis and reported via
 * `options.onWarning`.
 *
 * @param source - The document, with or without its leading `---`/`+++` frontmatter block.
 * @returns Plain text, trimmed, with single spaces between words.
 */
export function markdownToText(source: string, options: TextOptions = {}): string {
  // Warnings are delivered after extraction so an exception thrown by the caller's callback reaches the caller instead
  // of being mistaken for an extraction failure below.
  const warnings: TextWarning[] = [];
  const warn: Warn = (line, message) => warnings.push({ line, message });
  let text: string;
  try {
    text = finish(renderBlocks(scanBlocks(source, warn), warn));
  } catch (error) {
    // Safety net only: no input is known to get here, but one odd page must not abort a 100k-document build.
    warn(1, `text extraction failed, indexing crude text instead: ${String(error)}`);
    text = finish(source.replace(/<[^>]*>/g, ' '));
  }
  if (options.onWarning) {
    // The block and inline passes find problems in different orders; report them in source order.
    for (const w of warnings.sort((a, b) => a.line - b.line)) options.onWarning(w);
  }
  return text;
}

/**
 * The text of the first level-1 ATX heading (`# Title`) outside code fences, frontmatter and ESM, with inline markup
 * removed.
 *
 * @returns The heading text, or `undefined` when the document has no non-empty level-1 heading.
 */
export function firstHeading(source: string): string | undefined {
  try {
    const doc = scanBlocks(source, () => {});
    for (const block of doc.blocks) {
      if (block.kind !== 'heading' || block.level !== 1 || block.nested) continue;
      const text = finish(renderInline(block.text, [block.line], doc.refs, () => {}));
      if (text !== '') return text;
    }
  } catch {
    // Same safety net as markdownToText: a heading is optional metadata.
  }
  return undefined;
}

/** A part of a page under one heading: what a search result can point into. */
export interface TextSection {
  /** Heading text, inline markup removed; `''` for the part before the first heading. */
  heading: string;
  /** Plain text of the section's body (the heading not included). */
  text: string;
}

/** Options of {@link markdownSections}. */
export interface SectionOptions extends TextOptions {
  /**
   * Called with each section as it is extracted; returning `true` ends the extraction there. The rest of the page is
   * then not rendered (nor checked for inline problems): the indexer stops once it has `maxContentLength` of text.
   */
  enough?: (section: TextSection) => boolean;
}

/**
 * Splits a document at its level 2–4 headings (outside code, lists and quotes) into plain-text sections, with the
 * same extraction as {@link markdownToText}. Never throws; an unreadable document is one section with no heading.
 */
export function markdownSections(source: string, options: SectionOptions = {}): TextSection[] {
  const warnings: TextWarning[] = [];
  const warn: Warn = (line, message) => warnings.push({ line, message });
  const sections = splitSections(source, warn, options.enough ?? (() => false));
  if (options.onWarning) for (const w of warnings.sort((a, b) => a.line - b.line)) options.onWarning(w);
  return sections;
}

function splitSections(source: string, warn: Warn, enough: (section: TextSection) => boolean): TextSection[] {
  try {
    // The whole page is scanned (a link reference may be defined at its end); only the sections wanted are rendered.
    const doc = scanBlocks(source, warn);
    const sections: TextSection[] = [];
    let heading = '';
    let blocks: Block[] = [];
    /** Renders the section so far; true when it was the last one wanted. */
    const close = (): boolean => {
      const text = finish(renderBlocks({ blocks, refs: doc.refs }, warn));
      if (!heading && !text) return false;
      const section = { heading, text };
      sections.push(section);
      return enough(section);
    };
    for (const block of doc.blocks) {
      if (block.kind === 'heading' && block.level >= 2 && block.level <= 4 && !block.nested) {
        if (close()) return sections;
        heading = finish(renderInline(block.text, [block.line], doc.refs, () => {}));
        blocks = [];
      } else {
        blocks.push(block);
      }
    }
    close();
    return sections;
  } catch (error) {
    // Same safety net as markdownToText.
    warn(1, `text extraction failed, indexing crude text instead: ${String(error)}`);
    return [{ heading: '', text: finish(source.replace(/<[^>]*>/g, ' ')) }];
  }
}

/** Final normalisation shared by both exports: sentinel characters and soft hyphens removed, whitespace collapsed. */
function finish(text: string): string {
  // U+00AD (soft hyphen, mostly from `&shy;`) is invisible but would split a word in two for the tokenizer.
  return stripSentinels(text).replace(/\u00ad/g, '').replace(/\s+/g, ' ').trim();
}

// ---------------------------------------------------------------------------------------------------------------------
// Block pass
// ---------------------------------------------------------------------------------------------------------------------

type Block =
  /** Code-fence content, kept verbatim. */
  | { kind: 'code'; text: string }
  /** One prose line with its container marks (quote, list, table pipes) already removed. */
  | { kind: 'text'; text: string; line: number }
  /** `nested`: inside a list item or blockquote (or indented like one), so not a page title. */
  | { kind: 'heading'; level: number; text: string; line: number; nested: boolean }
  /** A paragraph boundary: emphasis, links and code spans never continue across one. */
  | { kind: 'break' };

interface ScannedDoc {
  blocks: Block[];
  /** Normalised labels of reference definitions, so `[text][ref]` can be told apart from literal brackets. */
  refs: Set<string>;
}

const FRONTMATTER_FENCES = new Set(['---', '+++']);
/** Blockquote markers and list markers (with an optional task checkbox) in front of a line's content. */
const CONTAINER_PREFIX = /^[ \t]*(?:(?:>|[-*+](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$))[ \t]*)*(?:\[[ xX]\](?=[ \t]))?[ \t]*/;
const FENCE_OPEN = /^(`{3,}|~{3,})(.*)$/;
const THEMATIC_BREAK = /^[ \t]*(?:>[ \t]*)*(?:([-*_])(?:[ \t]*\1){2,}|=+)[ \t]*$/;
const ATX_HEADING = /^(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const ADMONITION = /^:::+[\w-]*[ \t]*(?:\[(.*)\])?(?:\{[^}]*\})?(.*)$/;
const REFERENCE_DEFINITION = /^[ \t]{0,3}\[([^\]]+)\]:[ \t]*\S/;
const TABLE_DELIMITER_ROW = /^\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
const ESM_START = /^(?:import|export)(?=[\s{*])/;
const BLANK = /^[ \t]*$/;
const CODE_SPAN = /(`+)[^`]*?\1/g;

interface Fence {
  char: string;
  length: number;
  /** Blockquote depth of the opening line; content lines carry the same `>` markers. */
  quoteDepth: number;
  line: number;
  content: string[];
}

interface CommentSyntax {
  name: string;
  open: RegExp;
  close: RegExp;
}

const COMMENT_SYNTAXES: readonly CommentSyntax[] = [
  { name: 'MDX comment', open: /\{[ \t]*\/\*/g, close: /\*\/\s*\}/g },
  { name: 'HTML comment', open: /<!--/g, close: /-->/g },
];

/** Splits the document into code, heading and prose-line blocks, dropping frontmatter, ESM and pure-markup lines. */
function scanBlocks(source: string, warn: Warn): ScannedDoc {
  const text = source.replace(/^\ufeff/, '');
  // Splitting on one character is several times faster than on the expression, and most files have no \r.
  return new BlockScanner(text.includes('\r') ? text.split(/\r\n?|\n/) : text.split('\n'), warn).scan();
}

/** A line-based state machine: each method recognises one construct at the current line and consumes its lines. */
class BlockScanner {
  private readonly lines: readonly string[];
  private readonly warn: Warn;
  private readonly blocks: Block[] = [];
  private readonly refs = new Set<string>();
  /** Index of the current line. */
  private i = 0;
  private previousBlank = true;
  private inTable = false;

  constructor(lines: readonly string[], warn: Warn) {
    this.lines = lines;
    this.warn = warn;
  }

  scan(): ScannedDoc {
    this.i = this.skipFrontmatter();
    while (this.i < this.lines.length) this.scanLine(this.lines[this.i]!);
    return { blocks: this.blocks, refs: this.refs };
  }

  private scanLine(line: string): void {
    if (BLANK.test(line)) {
      this.previousBlank = true;
      this.inTable = false;
      return this.consume(1, { kind: 'break' });
    }
    // MDX only treats import/export as ESM at the start of a block; mid-paragraph it is prose.
    if (this.previousBlank && ESM_START.test(line)) {
      this.i = skipEsm(this.lines, this.i);
      return;
    }
    this.previousBlank = false;
    if (THEMATIC_BREAK.test(line)) return this.consume(1, { kind: 'break' });

    // A lone `>` closes a multi-line JSX tag rather than starting an empty blockquote.
    const prefix = line.trim() === '>' ? '' : (CONTAINER_PREFIX.exec(line)?.[0] ?? '');
    const content = line.slice(prefix.length);
    if (this.fence(prefix, content) || this.heading(prefix, content) || this.comment(content)) return;
    if (this.referenceDefinition(line) || this.admonition(content)) return;
    this.consume(1, { kind: 'text', text: this.tableRow(content), line: this.i + 1 });
  }

  private consume(lineCount: number, ...blocks: Block[]): void {
    this.blocks.push(...blocks);
    this.i += lineCount;
  }

  /** @returns The index of the first line after the frontmatter block (0 when there is none). */
  private skipFrontmatter(): number {
    const open = this.lines[0]?.trimEnd() ?? '';
    if (!FRONTMATTER_FENCES.has(open)) return 0;
    for (let i = 1; i < this.lines.length; i++) {
      if (this.lines[i]!.trimEnd() === open) return i + 1;
    }
    // Without a closing fence, `---` is just a thematic break; treating the whole page as YAML would lose it.
    this.warn(1, 'unclosed frontmatter');
    return 0;
  }

  private fence(prefix: string, content: string): boolean {
    const m = FENCE_OPEN.exec(content);
    // A backtick fence's info string cannot contain a backtick, which is what keeps ```js``` inline code.
    if (!m || (m[1]!.startsWith('`') && m[2]!.includes('`'))) return false;
    const fence: Fence = {
      char: m[1]![0]!,
      length: m[1]!.length,
      quoteDepth: countQuotes(prefix),
      line: this.i + 1,
      content: [],
    };
    this.i = readFence(this.lines, this.i + 1, fence, this.warn);
    this.blocks.push({ kind: 'break' }, { kind: 'code', text: fence.content.join('\n') }, { kind: 'break' });
    this.inTable = false;
    return true;
  }

  private heading(prefix: string, content: string): boolean {
    const m = ATX_HEADING.exec(content);
    if (!m) return false;
    const nested = prefix.length > 3 || /[^ ]/.test(prefix);
    this.consume(1, { kind: 'heading', level: m[1]!.length, text: m[2] ?? '', line: this.i + 1, nested });
    return true;
  }

  /**
   * A comment left open at the end of its line runs on over the following lines, which may hold anything (headings,
   * code fences), so it is skipped here by whole lines. The text before and after it is kept.
   */
  private comment(content: string): boolean {
    const open = unterminatedComment(content);
    if (!open) return false;
    const before = content.slice(0, open.start);
    for (let j = this.i + 1; j < this.lines.length; j++) {
      open.syntax.close.lastIndex = 0;
      const end = open.syntax.close.exec(this.lines[j]!);
      if (!end) continue;
      const after = this.lines[j]!.slice(end.index + end[0].length);
      this.consume(j + 1 - this.i, { kind: 'text', text: `${before} ${after}`, line: this.i + 1 });
      return true;
    }
    // Unclosed: only the rest of the opening line is treated as comment, so a typo does not swallow the page.
    this.warn(this.i + 1, `unclosed ${open.syntax.name}`);
    this.consume(1, { kind: 'text', text: before, line: this.i + 1 });
    return true;
  }

  private referenceDefinition(line: string): boolean {
    const m = REFERENCE_DEFINITION.exec(line);
    if (!m) return false;
    this.refs.add(normalizeLabel(m[1]!));
    this.consume(1, { kind: 'break' });
    return true;
  }

  /** `:::note` / `:::tip[Title]` / `:::`: the directive is markup, its title and any trailing text are kept. */
  private admonition(content: string): boolean {
    const m = content.startsWith(':::') ? ADMONITION.exec(content) : null;
    if (!m) return false;
    const title = `${m[1] ?? ''} ${m[2] ?? ''}`;
    this.consume(1, { kind: 'break' }, { kind: 'text', text: title, line: this.i + 1 }, { kind: 'break' });
    return true;
  }

  /** Cell text of a table row (delimiter rows become empty); any other line is returned unchanged. */
  private tableRow(content: string): string {
    if (!this.inTable && content.includes('|') && isTableDelimiter(this.lines[this.i + 1])) this.inTable = true;
    if (!this.inTable) return content;
    if (TABLE_DELIMITER_ROW.test(content) && content.includes('-')) return '';
    if (!content.includes('|')) {
      this.inTable = false;
      return content;
    }
    // Unescaped pipes separate cells; `\|` is a literal pipe, even inside a code span (GFM).
    return content.replace(/(?<!\\)\|/g, ' ').replace(/\\\|/g, '|');
  }
}

/** The last comment opened on this line and not closed on it, if any; comment syntax inside code spans is ignored. */
function unterminatedComment(line: string): { syntax: CommentSyntax; start: number } | null {
  if (!line.includes('/*') && !line.includes('<!--')) return null;
  const masked = line.replace(CODE_SPAN, (span) => ' '.repeat(span.length));
  for (const syntax of COMMENT_SYNTAXES) {
    syntax.open.lastIndex = 0;
    let last: RegExpExecArray | null = null;
    for (let m = syntax.open.exec(masked); m; m = syntax.open.exec(masked)) last = m;
    if (!last) continue;
    syntax.close.lastIndex = last.index;
    if (!syntax.close.test(masked)) return { syntax, start: last.index };
  }
  return null;
}

/**
 * Skips an MDX ESM block. Like MDX it runs to the next blank line, but a blank line inside an open bracket
 * (`export const x = {` … `}`) does not end it.
 *
 * @returns The index of the line after the block.
 */
function skipEsm(lines: readonly string[], start: number): number {
  let depth = 0;
  let i = start;
  for (; i < lines.length; i++) {
    const line = lines[i]!;
    if (BLANK.test(line) && depth <= 0) break;
    depth += bracketBalance(line);
  }
  return i;
}

/** Net count of opening minus closing brackets in a line of JavaScript, ignoring string literals. */
function bracketBalance(line: string): number {
  const code = line.replace(/'(?:\\.|[^'\\])*'|"(?:\\.|[^"\\])*"|`(?:\\.|[^`\\])*`/g, '');
  let balance = 0;
  for (const c of code) {
    if (c === '{' || c === '[' || c === '(') balance++;
    else if (c === '}' || c === ']' || c === ')') balance--;
  }
  return balance;
}

/** Collects fence content into `fence.content`; @returns the index of the line after the closing fence. */
function readFence(lines: readonly string[], start: number, fence: Fence, warn: Warn): number {
  const stripQuotes = fence.quoteDepth > 0 ? new RegExp(`^[ \\t]*(?:>[ \\t]?){0,${fence.quoteDepth}}`) : null;
  for (let i = start; i < lines.length; i++) {
    const line = stripQuotes ? lines[i]!.replace(stripQuotes, '') : lines[i]!;
    if (isClosingFence(line, fence)) return i + 1;
    fence.content.push(line);
  }
  // Everything after an unclosed fence is code: that is how CommonMark and MDX render it too.
  warn(fence.line, 'unclosed code fence');
  return lines.length;
}

/** A closing fence is a run of the opening character, at least as long as the opening run, and nothing else. */
function isClosingFence(line: string, fence: Fence): boolean {
  const trimmed = line.trim();
  if (trimmed.length < fence.length) return false;
  for (const c of trimmed) if (c !== fence.char) return false;
  return true;
}

function countQuotes(prefix: string): number {
  let n = 0;
  for (const c of prefix) if (c === '>') n++;
  return n;
}

function isTableDelimiter(line: string | undefined): boolean {
  if (line === undefined || !line.includes('|') || !line.includes('-')) return false;
  const content = line.slice(CONTAINER_PREFIX.exec(line)?.[0].length ?? 0);
  return TABLE_DELIMITER_ROW.test(content);
}

function normalizeLabel(label: string): string {
  return label.trim().replace(/\s+/g, ' ').toLowerCase();
}

// ---------------------------------------------------------------------------------------------------------------------
// Rendering
// ---------------------------------------------------------------------------------------------------------------------

/** Renders blocks to text; consecutive prose lines form one run so multi-line tags and comments can be matched. */
function renderBlocks(doc: ScannedDoc, warn: Warn): string {
  const out: string[] = [];
  let run: string[] = [];
  let runLines: number[] = [];
  const flush = (): void => {
    if (run.length === 0) return;
    out.push(renderInline(run.join('\n'), runLines, doc.refs, warn));
    run = [];
    runLines = [];
  };

  for (const block of doc.blocks) {
    switch (block.kind) {
      case 'code':
        flush();
        out.push(block.text);
        break;
      case 'heading':
        flush();
        out.push(renderInline(block.text, [block.line], doc.refs, warn));
        break;
      case 'text':
        run.push(block.text);
        runLines.push(block.line);
        break;
      case 'break':
        // An empty line keeps paragraphs apart inside the run without ending it: a JSX tag may legitimately span
        // blank lines (inside an attribute expression).
        if (run.length > 0) {
          run.push('');
          runLines.push(runLines[runLines.length - 1]!);
        }
        break;
    }
  }
  flush();
  return out.join('\n');
}

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

function renderInline(src: string, lineNumbers: readonly number[], refs: ReadonlySet<string>, warn: Warn): string {
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
      this.warnAt(this.pos, `unclosed JSX tag <${tag[1]}${name ?? ''}>`);
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
function findTagEnd(src: string, from: number): number {
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
