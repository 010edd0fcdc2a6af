/**
 * A search's results as a model reads them: `structuredContent` (declared by the tool's output schema) and the same as
 * Markdown text for clients that read only text. Snippets are plain text with the matched words in **bold**: the
 * endpoint's HTML-escaped `<mark>` snippet, its marks rendered visibly and its entities decoded.
 */
import type { SearchOutcome, SearchResult } from '../search/search.js';
import type { SearchInput } from '../search/query.js';
import { removeWordBreaks } from '../text/segment.js';

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

/** The endpoint's snippet as plain text: `<mark>word</mark>` becomes `**word**`, entities are decoded. */
export function plainSnippet(html: string): string {
  return removeWordBreaks(html.replace(/<\/?mark>/g, '**').replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]!));
}

/** The tool's answer from the search's outcome. */
export function toolAnswer(input: SearchInput, outcome: SearchOutcome, maxOffset: number): ToolAnswer {
  const results = outcome.results.map(toolResult);
  const next = input.offset + input.limit;
  return {
    query: input.q,
    ...(outcome.suggestion ? { showingResultsFor: outcome.suggestion } : {}),
    results,
    ...(results.length === input.limit && next <= maxOffset ? { nextOffset: next } : {}),
  };
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
  };
}

/** The answer as Markdown: a line per result with its URL, the snippet, the matching sections. */
export function answerText(answer: ToolAnswer): string {
  const lines: string[] = [];
  if (answer.showingResultsFor) lines.push(`No close match for "${answer.query}": showing results for "${answer.showingResultsFor}".`, '');
  if (answer.results.length === 0) lines.push(`No pages found for "${answer.query}". Try other words, or list_pages to browse.`);
  answer.results.forEach((r, i) => {
    lines.push(`${i + 1}. [${r.title}](${r.url}) (${r.type}${r.date ? `, ${r.date}` : ''})`);
    if (r.url !== r.page) lines.push(`   Page: ${r.page}`);
    if (r.snippet) lines.push(`   ${r.snippet}`);
    for (const s of r.sections) lines.push(`   - [${s.heading}](${s.url})${s.snippet ? `: ${s.snippet}` : ''}`);
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
        },
        required: ['title', 'url', 'page', 'type', 'snippet', 'sections'],
      },
    },
    nextOffset: { type: 'integer' },
  },
  required: ['query', 'results'],
} as const;
