/**
 * A search's results as a model reads them: `structuredContent` (declared by the tool's output schema) and the same as
 * Markdown text for clients that read only text. Snippets are plain text with the matched words in **bold**: the
 * endpoint's HTML-escaped `<mark>` snippet, its marks rendered visibly and its entities decoded.
 */
import type { SearchOutcome, SearchResult } from '../search/search.js';
import type { SearchInput } from '../search/query.js';
import { removeWordBreaks } from '../text/segment.js';
import { escapeInline, markdownLink, markdownText, markdownUrl } from './markdown-text.js';

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
}

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

/** The tool's answer from the search's outcome: `structuredContent`, and the same as Markdown text. */
export function toolAnswer(input: SearchInput, outcome: SearchOutcome, maxOffset: number): { answer: ToolAnswer; text: string } {
  const results = outcome.results.map(toolResult);
  const next = input.offset + input.limit;
  const answer: ToolAnswer = {
    query: input.q,
    ...(outcome.suggestion ? { showingResultsFor: outcome.suggestion } : {}),
    results,
    ...(results.length === input.limit && next <= maxOffset ? { nextOffset: next } : {}),
  };
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
    const source = found[i]!;
    lines.push(`${i + 1}. ${markdownLink(r.title, r.url)} (${markdownText(r.type)}${r.date ? `, ${markdownText(r.date)}` : ''})`);
    if (r.url !== r.page) lines.push(`   Page: ${markdownUrl(r.page)}`);
    const snippet = markdownSnippet(source.snippet);
    if (snippet) lines.push(`   ${snippet}`);
    r.sections.forEach((s, j) => {
      const text = markdownSnippet(source.sections![j]!.snippet);
      lines.push(`   - ${markdownLink(s.heading, s.url)}${text ? `: ${text}` : ''}`);
    });
    if (r.variants) lines.push(`   Also: ${r.variants.map((v) => markdownLink(v.title, v.url)).join(', ')}`);
  });
  if (answer.nextOffset !== undefined) lines.push('', `More results: call search again with offset ${answer.nextOffset}.`);
  return lines.join('\n');
}

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
  },
  required: ['query', 'results'],
} as const;
