/**
 * The block pass of Markdown/MDX → text (see text.ts): a line-based scan that separates code, frontmatter, ESM and
 * prose, then renders the prose through the inline pass.
 */
import { normalizeLabel, renderInline, type Warn } from './markdown-inline.js';
import { headingAsSentence } from './heading-sentence.js';

// ---------------------------------------------------------------------------------------------------------------------
// Block pass
// ---------------------------------------------------------------------------------------------------------------------

export type Block =
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
export const CONTAINER_PREFIX = /^[ \t]*(?:(?:>|[-*+](?=[ \t]|$)|\d{1,9}[.)](?=[ \t]|$))[ \t]*)*(?:\[[ xX]\](?=[ \t]))?[ \t]*/;
export const FENCE_OPEN = /^(`{3,}|~{3,})(.*)$/;
const THEMATIC_BREAK = /^[ \t]*(?:>[ \t]*)*(?:([-*_])(?:[ \t]*\1){2,}|=+)[ \t]*$/;
export const ATX_HEADING = /^(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const ADMONITION = /^:::+[\w-]*[ \t]*(?:\[(.*)\])?(?:\{[^}]*\})?(.*)$/;
const REFERENCE_DEFINITION = /^[ \t]{0,3}\[([^\]]+)\]:[ \t]*\S/;
const TABLE_DELIMITER_ROW = /^\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
export const ESM_START = /^(?:import|export)(?=[\s{*])/;
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
export function scanBlocks(source: string, warn: Warn): ScannedDoc {
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
    this.i = skipFrontmatter(this.lines, this.warn);
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

/** @returns The index of the first line after the frontmatter block (0 when there is none). */
export function skipFrontmatter(lines: readonly string[], warn: Warn): number {
  const open = lines[0]?.trimEnd() ?? '';
  if (!FRONTMATTER_FENCES.has(open)) return 0;
  for (let i = 1; i < lines.length; i++) {
    if (lines[i]!.trimEnd() === open) return i + 1;
  }
  // Without a closing fence, `---` is just a thematic break; treating the whole page as YAML would lose it.
  warn(1, 'unclosed frontmatter');
  return 0;
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
export function skipEsm(lines: readonly string[], start: number): number {
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


// ---------------------------------------------------------------------------------------------------------------------
// Rendering
// ---------------------------------------------------------------------------------------------------------------------

/** Renders blocks to text; consecutive prose lines form one run so multi-line tags and comments can be matched. */
export function renderBlocks(doc: ScannedDoc, warn: Warn): string {
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
        out.push(headingAsSentence(renderInline(block.text, [block.line], doc.refs, warn)));
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

/** A closing fence is a run of the opening character, at least as long as the opening run, and nothing else. */
export function isClosingFence(line: string, fence: Pick<Fence, 'char' | 'length'>): boolean {
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
