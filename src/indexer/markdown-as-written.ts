/**
 * A page's Markdown as its author wrote it, for assistants (`get_page`, llms-full.txt, `<page>.md`): every line of the
 * body kept as it is, fenced code blocks byte for byte with their info string, but for what only MDX or a build reads:
 * the frontmatter, ESM `import`/`export` blocks, comments, and JSX components, whose tags are removed and whose
 * children stay (`<Steps>1. Install…</Steps>` keeps the list; `<Since v="4.0" />` goes). Lowercase HTML is Markdown
 * and stays. Line endings become `\n`. Never throws.
 *
 * The outline comes with it: each heading (levels 1 to 6, outside code, lists and quotes) with its level, its text as
 * the page shows it, its anchor on the built page and where it starts in the Markdown, so one section can be served
 * alone. Anchors are github-slugger's over the page's headings in order, as Astro, GitHub and most docs generators
 * make them.
 */
import GithubSlugger from 'github-slugger';
import type { OutlineEntry } from '../db/write-plan.js';
import { cutOnWord } from '../text/cut.js';
import { ATX_HEADING, CONTAINER_PREFIX, ESM_START, FENCE_OPEN, isClosingFence, skipEsm, skipFrontmatter } from './markdown-blocks.js';
import { findTagEnd } from './markdown-inline.js';
import { headingText } from './text.js';


/** The page as written, and its outline. */
export interface WrittenMarkdown {
  markdown: string;
  outline: OutlineEntry[];
  /** True when the page was longer than {@link MARKDOWN_MAX_CHARS} and its Markdown was cut. */
  truncated: boolean;
}

/**
 * The most Markdown kept per page, in characters (UTF-16 code units): about 100,000 tokens, more than an assistant
 * reads of one page, and more than any page of the Astro docs (the longest, the configuration reference, is 92,000).
 * A longer page is cut at the last line that ends before it outside a code block (a code block is kept whole or not
 * at all), and a last line says where the rest is (docs/indexing.md).
 */
export const MARKDOWN_MAX_CHARS = 400_000;

/** The line that ends a page cut at {@link MARKDOWN_MAX_CHARS}. */
export const MARKDOWN_CUT_NOTE = `(The index keeps the first ${MARKDOWN_MAX_CHARS.toLocaleString('en-US')} characters of this page; the rest is on the page itself.)`;

/** A JSX component's tag (capitalised or dotted name) or a fragment, opening or closing. */
const COMPONENT_TAG = /<\/?(?:[A-Z][\w]*(?:\.[\w]+)*|>)/g;
/** Code spans, whose text is never markup. */
const CODE_SPAN = /(`+)[^`]*?\1/g;
/** `{/* … *\/}` (MDX) and `<!-- … -->` (HTML) comments, possibly over several lines. */
const COMMENT = /\{[ \t]*\/\*[\s\S]*?\*\/[ \t]*\}|<!--[\s\S]*?-->/g;
const BLANK = /^[ \t]*$/;

/** `source` (a whole .md/.mdx file, frontmatter included) as Markdown for assistants, with its outline. */
export function markdownAsWritten(source: string): WrittenMarkdown {
  const text = source.replace(/^\ufeff/, '');
  const lines = text.includes('\r') ? text.split(/\r\n?|\n/) : text.split('\n');
  const kept: { line: number; text: string; code: boolean }[] = [];
  let prose: { line: number; text: string }[] = [];
  const flush = () => {
    for (const [i, line] of withoutComponents(prose.map((p) => p.text)).entries()) {
      if (line !== null) kept.push({ line: prose[i]!.line, text: line, code: false });
    }
    prose = [];
  };

  let previousBlank = true;
  for (let i = skipFrontmatter(lines, () => {}); i < lines.length; ) {
    const line = lines[i]!;
    if (previousBlank && ESM_START.test(line)) {
      i = skipEsm(lines, i);
      continue;
    }
    previousBlank = BLANK.test(line);
    const content = line.slice(CONTAINER_PREFIX.exec(line)?.[0].length ?? 0);
    const fence = FENCE_OPEN.exec(content);
    if (fence && !(fence[1]!.startsWith('`') && fence[2]!.includes('`'))) {
      flush();
      const open = { char: fence[1]![0]!, length: fence[1]!.length };
      kept.push({ line: i, text: line, code: true });
      // Each line of the block as written, its closing fence too (an unclosed block runs to the end, as CommonMark reads it).
      for (i++; i < lines.length; i++) {
        kept.push({ line: i, text: lines[i]!, code: true });
        if (isClosingFence(lines[i]!.replace(/^[ \t]*(?:>[ \t]?)*/, ''), open)) {
          i++;
          break;
        }
      }
      previousBlank = false;
      continue;
    }
    prose.push({ line: i, text: line });
    i++;
  }
  flush();
  return assemble(kept);
}

/**
 * The lines of a prose run with comments and component tags removed (a tag may span lines): a line left blank by the
 * removal is `null` (dropped), a line that was blank stays blank. Code spans are left as they are.
 */
function withoutComponents(lines: string[]): (string | null)[] {
  if (lines.length === 0) return [];
  const run = lines.join('\n');
  if (!run.includes('<') && !run.includes('{')) return lines;
  // Where code spans are (their text is kept whatever it holds): masked while tags and comments are looked for.
  const masked = run.replace(CODE_SPAN, (span) => span.replace(/[^\n]/g, ' '));
  const cuts: [number, number][] = [];
  for (const m of masked.matchAll(COMMENT)) cuts.push([m.index, m.index + m[0].length]);
  const inComment = (at: number) => cuts.some(([from, to]) => at >= from && at < to);
  for (const m of masked.matchAll(COMPONENT_TAG)) {
    if (inComment(m.index)) continue;
    const end = m[0] === '<>' || m[0] === '</>' ? m.index + m[0].length : findTagEnd(masked, m.index + m[0].length);
    if (end > 0) cuts.push([m.index, end]);
  }
  if (cuts.length === 0) return lines;
  cuts.sort((a, b) => a[0] - b[0]);
  let out = '';
  let at = 0;
  for (const [from, to] of cuts) {
    if (from < at) {
      at = Math.max(at, to);
      continue;
    }
    out += run.slice(at, from);
    // What a removed tag spanned over several lines leaves as line breaks, so lines stay where they were.
    out += run.slice(from, to).replace(/[^\n]/g, '');
    at = to;
  }
  out += run.slice(at);
  const result = out.split('\n');
  return result.map((line, i) => (BLANK.test(line) && !BLANK.test(lines[i]!) ? null : line.trimEnd() === lines[i]!.trimEnd() ? lines[i]! : line.trimEnd()));
}

/** The kept lines as one text (runs of blank lines made by the removals folded into one), with the outline. */
function assemble(kept: { line: number; text: string; code: boolean }[]): WrittenMarkdown {
  const out: string[] = [];
  const outline: OutlineEntry[] = [];
  const slugger = new GithubSlugger();
  let length = 0;
  let truncated = false;
  let blockStart = 0;
  for (let k = 0; k < kept.length; k++) {
    const { text, code } = kept[k]!;
    const blank = !code && BLANK.test(text);
    if (blank && (out.length === 0 || out[out.length - 1] === '')) continue;
    const line = blank ? '' : text;
    if (!code || k === 0 || !kept[k - 1]!.code) blockStart = out.length;
    if (length + line.length + 1 > MARKDOWN_MAX_CHARS) {
      // A code block is whole or not at all: the cut goes back to its first line.
      if (code) out.length = blockStart;
      truncated = true;
      break;
    }
    if (!code) {
      // As the text pass reads headings (markdown-blocks.ts): one inside a list or a quote is not the page's.
      const prefix = line.trim() === '>' ? '' : (CONTAINER_PREFIX.exec(line)?.[0] ?? '');
      const heading = prefix.length <= 3 && !/[^ ]/.test(prefix) ? ATX_HEADING.exec(line.slice(prefix.length)) : null;
      if (heading) {
        const shown = cutOnWord(headingText(heading[2] ?? ''), HEADING_LIMIT).content;
        if (shown) outline.push([heading[1]!.length, shown, slugger.slug(shown), length]);
      }
    }
    out.push(line);
    length += line.length + 1;
  }
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  const markdown = out.join('\n');
  return { markdown: truncated ? `${markdown}\n\n${MARKDOWN_CUT_NOTE}` : markdown, outline, truncated };
}

/** Headings are cut to this many characters, as the index's sections are (FIELD_LIMITS.heading in document.ts). */
const HEADING_LIMIT = 1_000;
