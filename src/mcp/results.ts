/**
 * A search's results as a model reads them: `structuredContent` (declared by the tool's output schema) and the same as
 * Markdown text for clients that read only text. Snippets are plain text with the matched words in **bold**: the
 * endpoint's HTML-escaped `<mark>` snippet, its marks rendered visibly and its entities decoded.
 */
import type { SearchOutcome, SearchResult } from '../search/search.js';
import type { SearchInput } from '../search/query.js';
import { removeWordBreaks } from '../text/segment.js';
import { escapeInline, markdownLink, markdownText, markdownUrl } from './markdown-text.js';
import { cutMarkdown, estimateTokens } from './sized-markdown.js';

/** One result as the `search` tool returns it. */
export interface ToolResult {
  title: string;
  /** The best section's URL when a section answers, else the page's. */
  url: string;
  /** The page's URL (what `get_page` takes). */
  page: string;
  type: string;
  date?: string;
  tags?: string;
  snippet: string;
  sections: { heading: string; url: string; snippet: string }[];
  /** The same page for another version, framework or dialect (the `distinct` option), when it has any. */
  variants?: { title: string; url: string }[];
  /** The best section (or the page's opening) as its author wrote it, within the answer's token budget. */
  markdown?: string;
  /** True when `markdown` is the section's start, cut to the budget (a code block whole or not at all). */
  truncated?: true;
}

/** What the `search` tool returns as `structuredContent`. */
export interface ToolAnswer {
  [key: string]: unknown;
  query: string;
  /** The corrected query the results are for, when the words as typed found too little. */
  showingResultsFor?: string;
  results: ToolResult[];
  /** The `offset` of the next results, when there may be more. */
  nextOffset?: number;
  /** True when the token budget cut a section, left one out, or left results for `nextOffset`. */
  truncated?: true;
}

/** What the answer holds beyond the search's results: each result's best section as written, and the token budget. */
export interface AnswerSizing {
  /** The most tokens the answer's text may take (sized-markdown.ts says how they are counted). */
  maxTokens: number;
  /** The best section of result `i` as written, when its page has its Markdown in the index. */
  sectionOf(i: number): string | undefined;
}

/** Tokens kept free under the budget for the lines that change with what is kept (the next offset's digits). */
const SLACK_TOKENS = 8;

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const decode = (html: string) => html.replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]!);

/** The endpoint's snippet as plain text: `<mark>word</mark>` becomes `**word**`, entities are decoded. */
export function plainSnippet(html: string): string {
  return removeWordBreaks(decode(html.replace(/<\/?mark>/g, '**')));
}

/**
 * The endpoint's snippet as Markdown text: its words escaped (a snippet may stand in with the page's description,
 * which is frontmatter), the marks as `**bold**`.
 */
function markdownSnippet(html: string): string {
  return html
    .split(/(<\/?mark>)/)
    .map((part) => (part === '<mark>' || part === '</mark>' ? '**' : escapeInline(decode(part))))
    .join('')
    .trim();
}

/**
 * The tool's answer from the search's outcome: `structuredContent`, and the same as Markdown text, within
 * `sizing.maxTokens`. Each result's lines come first, in rank order, as many as fit in half the budget (at least the
 * first; those left out are the next call's, from `nextOffset`); then each result, in rank order, gets its best
 * section as written, cut to what the budget has left (a code block whole or not at all), until the budget is spent.
 */
export function toolAnswer(input: SearchInput, outcome: SearchOutcome, maxOffset: number, sizing: AnswerSizing): { answer: ToolAnswer; text: string } {
  const all = outcome.results.map(toolResult);
  const frame = (results: ToolResult[], nextOffset?: number): ToolAnswer => ({
    query: input.q,
    ...(outcome.suggestion ? { showingResultsFor: outcome.suggestion } : {}),
    results,
    ...(nextOffset !== undefined ? { nextOffset } : {}),
  });
  const next = input.offset + input.limit;
  const full = frame(all, all.length === input.limit && next <= maxOffset ? next : undefined);
  // The lines around the results, with room for a next offset whether or not one comes (the budget may make one).
  let left = sizing.maxTokens - SLACK_TOKENS - estimateTokens(answerText(frame([], maxOffset), []));
  // The results' lines take at most half the budget when the pages have sections to give: ten results' lines and
  // snippets are most of 3,000 tokens, and the sections are what an assistant came for.
  const forLines = all.some((_, i) => sizing.sectionOf(i)) ? left / 2 : left;
  let kept = 0;
  let lines = 0;
  for (const [i, result] of all.entries()) {
    const cost = estimateTokens(resultText(result, outcome.results[i]!, i)) + 1;
    if (i > 0 && lines + cost > forLines) break;
    lines += cost;
    kept++;
  }
  left -= lines;
  const cutResults = kept < all.length;
  const results = all.slice(0, kept);
  let truncated = cutResults;
  for (const [i, result] of results.entries()) {
    const section = sizing.sectionOf(i);
    if (!section) continue;
    // Room for the fence, and for the line that says the section was cut.
    const room = left - estimateTokens(sectionText('', true)) - 1;
    const { text, truncated: cut } = room > 0 ? cutMarkdown(section, room, (part) => estimateTokens(indented(part))) : { text: '', truncated: true };
    if (cut) truncated = true;
    // A section cut down to its heading says nothing the result's lines do not.
    if (!text || (cut && text.split('\n').every((line) => line.trim() === '' || /^#{1,6}(?:[ \t]|$)/.test(line)))) continue;
    result.markdown = text;
    if (cut) result.truncated = true;
    left -= estimateTokens(sectionText(text, cut)) + 1;
  }
  const answer = frame(results, cutResults && input.offset + kept <= maxOffset ? input.offset + kept : full.nextOffset);
  if (truncated) answer.truncated = true;
  return { answer, text: answerText(answer, outcome.results) };
}

function toolResult(r: SearchResult): ToolResult {
  return {
    title: removeWordBreaks(r.title),
    url: r.section?.url ?? r.url,
    page: r.url,
    type: r.type,
    ...(r.date ? { date: r.date } : {}),
    ...(r.tags ? { tags: r.tags } : {}),
    snippet: plainSnippet(r.snippet),
    sections: (r.sections ?? []).map((s) => ({ heading: removeWordBreaks(s.heading), url: s.url, snippet: plainSnippet(s.snippet) })),
    ...(r.variants?.length ? { variants: r.variants } : {}),
  };
}

/**
 * The answer as Markdown: a line per result with its URL, the snippet, the matching sections. Every text that comes
 * from the index is escaped (titles, headings and snippets stay text; URLs cannot end their link early), so no page's
 * frontmatter can add a result, a heading or a link (docs/security.md, round 5).
 */
function answerText(answer: ToolAnswer, found: SearchResult[]): string {
  const lines: string[] = [];
  const query = markdownText(answer.query);
  if (answer.showingResultsFor) lines.push(`No close match for "${query}": showing results for "${markdownText(answer.showingResultsFor)}".`, '');
  if (answer.results.length === 0) lines.push(`No pages found for "${query}". Try other words, or list_pages to browse.`);
  answer.results.forEach((r, i) => {
    lines.push(resultText(r, found[i]!, i));
    if (r.markdown) lines.push(sectionText(r.markdown, r.truncated));
  });
  if (answer.nextOffset !== undefined) lines.push('', `More results: call search again with offset ${answer.nextOffset}.`);
  return lines.join('\n');
}

/** A result's lines: its link, its page, its snippet, the matching sections. */
function resultText(r: ToolResult, source: SearchResult, i: number): string {
  const lines = [`${i + 1}. ${markdownLink(r.title, r.url)} (${markdownText(r.type)}${r.date ? `, ${markdownText(r.date)}` : ''})`];
  if (r.url !== r.page) lines.push(`   Page: ${markdownUrl(r.page)}`);
  const snippet = markdownSnippet(source.snippet);
  if (snippet) lines.push(`   ${snippet}`);
  r.sections.forEach((s, j) => {
    const text = markdownSnippet(source.sections![j]!.snippet);
    lines.push(`   - ${markdownLink(s.heading, s.url)}${text ? `: ${text}` : ''}`);
  });
  if (r.variants) lines.push(`   Also: ${r.variants.map((v) => markdownLink(v.title, v.url)).join(', ')}`);
  return lines.join('\n');
}

/**
 * A result's section as written, inside its list item: quoted in a fence longer than any it holds (so its code blocks
 * stay as written and its headings cannot pass for the answer's), every line indented as the item's (a Markdown reader
 * removes the indentation again inside the fence), and a line saying when it was cut.
 */
function sectionText(markdown: string, truncated?: boolean): string {
  const longest = Math.max(2, ...Array.from(markdown.matchAll(/`{3,}/g), (m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const cut = truncated ? '\n   (The section goes on: get_page with its URL reads it whole.)' : '';
  return `\n   ${fence}markdown\n${indented(markdown)}\n   ${fence}${cut}`;
}

/** `markdown` with each line indented as a result's list item. */
const indented = (markdown: string) => markdown.replace(/^(?=.)/gm, '   ');

/** The output schema of `search`, as JSON Schema (what `tools/list` declares). */
export const ANSWER_JSON_SCHEMA = {
  type: 'object',
  properties: {
    query: { type: 'string' },
    showingResultsFor: { type: 'string', description: 'The corrected query the results are for.' },
    results: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          title: { type: 'string' },
          url: { type: 'string', description: 'The section that answers, or the page.' },
          page: { type: 'string', description: 'The page, for get_page.' },
          type: { type: 'string' },
          date: { type: 'string' },
          tags: { type: 'string' },
          snippet: { type: 'string', description: 'Plain text; the matched words in **bold**.' },
          markdown: { type: 'string', description: 'The best section (or the page\'s opening) as its author wrote it, code blocks whole.' },
          truncated: { type: 'boolean', description: 'The section was cut to the token budget: get_page with url reads it whole.' },
          sections: {
            type: 'array',
            items: {
              type: 'object',
              properties: { heading: { type: 'string' }, url: { type: 'string' }, snippet: { type: 'string' } },
              required: ['heading', 'url', 'snippet'],
            },
          },
          variants: {
            type: 'array',
            description: 'The same page for another version, framework or dialect.',
            items: { type: 'object', properties: { title: { type: 'string' }, url: { type: 'string' } }, required: ['title', 'url'] },
          },
        },
        required: ['title', 'url', 'page', 'type', 'snippet', 'sections'],
      },
    },
    nextOffset: { type: 'integer' },
    truncated: { type: 'boolean', description: 'The token budget (maxTokens) cut a section or left results for nextOffset.' },
  },
  required: ['query', 'results'],
} as const;
