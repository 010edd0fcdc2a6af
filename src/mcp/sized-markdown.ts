/**
 * Markdown sized for a model's context window (issue 53, item 3): how many tokens a text is counted as, and a page's
 * Markdown cut to a number of tokens at a block's end, a fenced code block whole or not at all.
 *
 * Tokens are estimated, not counted by a model's tokenizer (whose tables would outweigh the rest of the Worker): a
 * character of ASCII is a third of a token and any other character a whole token. English prose runs at about four
 * characters a token in GPT-4o's and Claude's tokenizers, but code and URLs, which these answers are full of, at
 * about three (a quarter of a token a character undercounted the tRPC answers by up to 17%); a CJK character is about
 * one token, and an accented letter, counted as one, errs on the high side. docs/benchmarks.md compares the estimate
 * with a real tokenizer (o200k_base) on the answers to the tRPC set's assistant questions (`npm run bench:answers`).
 */

/** The `search` tool's answer size when `maxTokens` is not given, and the most it may ask (Mintlify's bounds). */
export const DEFAULT_MAX_TOKENS = 3_000;
export const MAX_MAX_TOKENS = 6_000;
/** The least `maxTokens` may be: room for a few results' lines (the first result's lines are kept whatever the budget). */
export const MIN_MAX_TOKENS = 500;

/** The estimated tokens of `text` (see the module's comment). */
export function estimateTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (const char of text) {
    if (char.charCodeAt(0) < 0x80) ascii++;
    else other++;
  }
  return Math.ceil(ascii / 3) + other;
}

/** A fence's opening run, after a line's indentation, quote markers and list marker. */
const FENCE = /^[ \t]*(?:>[ \t]?)*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?(`{3,}|~{3,})(.*)$/;

/**
 * The blocks of `markdown` that a cut keeps or leaves whole: each fenced code block (its lines, fences included) and
 * each other line.
 */
function blocks(markdown: string): string[] {
  const out: string[] = [];
  let fence: { char: string; length: number; lines: string[] } | undefined;
  for (const line of markdown.split('\n')) {
    if (fence) {
      fence.lines.push(line);
      const close = FENCE.exec(line);
      if (close && close[1]![0] === fence.char && close[1]!.length >= fence.length && close[2]!.trim() === '') {
        out.push(fence.lines.join('\n'));
        fence = undefined;
      }
      continue;
    }
    const open = FENCE.exec(line);
    // A backtick fence whose info string holds a backtick is inline code, not a fence (CommonMark).
    if (open && !(open[1]![0] === '`' && open[2]!.includes('`'))) fence = { char: open[1]![0]!, length: open[1]!.length, lines: [line] };
    else out.push(line);
  }
  // A block left open runs to the end, as CommonMark reads it.
  if (fence) out.push(fence.lines.join('\n'));
  return out;
}

/**
 * `markdown` within `maxTokens`: whole when it fits, else its blocks from the start as long as they fit (a code block
 * whole or not at all, so no fence is ever left open), `truncated` then. Blank lines at the cut are dropped. `measure`
 * counts a text's tokens as the caller will write it (indented, say).
 */
export function cutMarkdown(markdown: string, maxTokens: number, measure: (text: string) => number = estimateTokens): { text: string; truncated: boolean } {
  if (measure(markdown) <= maxTokens) return { text: markdown, truncated: false };
  const kept: string[] = [];
  let used = 0;
  for (const block of blocks(markdown)) {
    // Each block costs its line break too.
    const cost = measure(block) + 1;
    if (used + cost > maxTokens) break;
    kept.push(block);
    used += cost;
  }
  return { text: kept.join('\n').trimEnd(), truncated: true };
}
