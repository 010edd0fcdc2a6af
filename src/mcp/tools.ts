/**
 * The three tools on an SDK server: `search` (the endpoint's search, same engine and limits), `get_page` (a page of
 * the index as Markdown) and `list_pages` (the pages, paged). Their descriptions are written for a model: what the
 * site is and when to call which tool.
 */
import { McpServer } from '@modelcontextprotocol/server';
import { billsRowsRead, forSearch } from '../db/d1.js';
import { listPages, readPage } from '../db/pages.js';
import type { SearchDatabase } from '../db/types.js';
import { SiteSearchError } from '../errors.js';
import { databaseErrorMessage } from '../http/handler.js';
import type { McpOptions, ResolvedConfig } from '../options/options.js';
import { codePointLength } from '../text/code-points.js';
import { MIN_QUERY_LENGTH } from '../text/query-length.js';
import { runSearch } from '../search/search.js';
import { urlResolver } from '../search/urls.js';
import { LIST_PAGE_SIZE, listArguments, pageArguments, searchArguments } from './arguments.js';
import { pageMarkdown } from './page-markdown.js';
import { ANSWER_JSON_SCHEMA, answerText, toolAnswer } from './results.js';
import type { SearchInput } from '../search/query.js';
import type { Ranking } from '../ranking/types.js';
import type { AnswerBody } from '../analytics/events.js';

/** What one request's tools work with. */
export interface ToolContext {
  /** The database; throws with the endpoint's words when there is none. */
  db(): SearchDatabase;
  /** The site's origin: result and page URLs are absolute on it. */
  origin: string;
  /** The rankings the search tool may answer with (those of the endpoint). */
  rankings: readonly Ranking[];
  /** Called after each search the `search` tool answers (analytics, counted as an assistant's). */
  searched?: (input: SearchInput, outcome: AnswerBody) => void;
}

/** The package version the server reports (`serverInfo`). */
const VERSION = '0.1.0';

/** A tool's answer: text for every client, `structuredContent` for those that read it. */
type ToolReply = { content: { type: 'text'; text: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };

/** The site as the descriptions name it, and what it covers when the options say. */
function siteWords(config: ResolvedConfig): { site: string; about: string } {
  const mcp: Partial<McpOptions> = config.mcp || {};
  const site = mcp.name ? `the ${mcp.name} site` : 'this site';
  return { site, about: mcp.description ? ` (${mcp.description.replace(/\.$/, '')})` : '' };
}

/**
 * A server with the tools, for one request (the handler is stateless: each request gets its own). `extra` registers
 * more tools on it (the conformance suite's test tool, in tests only).
 * @internal
 */
export function toolServer(config: ResolvedConfig, context: ToolContext): McpServer {
  const { site, about } = siteWords(config);
  const name = config.mcp && config.mcp.name ? config.mcp.name : 'site-search';
  const server = new McpServer(
    { name, version: VERSION },
    {
      instructions: `Tools to search and read ${site}${about}. Call search first, then get_page with a result's page URL to read it; list_pages browses every page.`,
      // Arguments are a few strings and numbers: a call with more is no honest one.
      maxToolInputElements: 64,
    },
  );
  const absolute = urlResolver(context.origin);
  const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

  server.registerTool(
    'search',
    {
      title: 'Search the site',
      description:
        `Full-text search over every page of ${site}${about}, ranked as the site's own search box ranks them. ` +
        'Returns each page\'s title, the URL of the section that answers (or of the page), a snippet with the matched words in **bold**, and the sections that match. ' +
        `Call it first for any question about ${site}; a question in plain words works. Then call get_page with a result's page URL to read it whole. ` +
        'Use limit and offset to page, type and tags to narrow. When the words as typed find too little, the answer says which corrected words it shows results for.',
      inputSchema: searchArguments(config),
      outputSchema: { '~standard': { version: 1, vendor: 'site-search', validate: (value: unknown) => ({ value }), jsonSchema: { input: () => ANSWER_JSON_SCHEMA, output: () => ANSWER_JSON_SCHEMA } } } as never,
      annotations: readOnly,
    },
    guarded(async (input: SearchInput): Promise<ToolReply> => {
      if (codePointLength(input.q) < MIN_QUERY_LENGTH) return failure(`Query too short (at least ${MIN_QUERY_LENGTH} characters)`);
      const db = context.db();
      const outcome = await runSearch(config, forSearch(db), input, { origin: context.origin, rowsBilled: billsRowsRead(db), rankings: context.rankings });
      context.searched?.(input, outcome);
      const answer = toolAnswer(input, outcome, config.maxOffset);
      return { content: [{ type: 'text', text: answerText(answer) }], structuredContent: answer };
    }),
  );

  server.registerTool(
    'get_page',
    {
      title: 'Read a page',
      description:
        `Read one page of ${site} as Markdown: its title, URL and description, then each section under its heading. ` +
        'Give a URL that search or list_pages returned (a #section part is ignored), or the page\'s path on the site. ' +
        'Call it to read what a search result only summarizes.',
      inputSchema: pageArguments(),
      annotations: readOnly,
    },
    guarded(async ({ url }: { url: string }): Promise<ToolReply> => {
      const path = sitePath(url, context.origin);
      if (path === undefined) return failure(`Not a page of this site: ${url.slice(0, 200)}. Give a URL on ${context.origin} from search or list_pages.`);
      const page = await readPage(context.db(), config.site, pathVariants(path));
      if (!page) return failure(`No page at ${url.slice(0, 200)} in this site's index. Search for it, or browse with list_pages.`);
      return { content: [{ type: 'text', text: pageMarkdown(page, absolute(page.url)) }] };
    }),
  );

  server.registerTool(
    'list_pages',
    {
      title: 'List the pages',
      description:
        `List the pages of ${site} with their titles, URLs and descriptions, ${LIST_PAGE_SIZE} at a time in URL order` +
        (config.types.length > 1 ? `, of every type or one (${config.types.join(', ')})` : '') +
        '. Call it for an overview of what the site covers, or when search finds nothing; pass the offset it returns for the next pages.',
      inputSchema: listArguments(config),
      annotations: readOnly,
    },
    guarded(async ({ type, offset }: { type: string; offset: number }): Promise<ToolReply> => {
      const { pages, more } = await listPages(context.db(), config.site, { type, offset, limit: LIST_PAGE_SIZE });
      const listed = pages.map((p) => ({ title: p.title, url: absolute(p.url), description: p.description, type: p.type }));
      const next = more ? offset + LIST_PAGE_SIZE : undefined;
      const lines = listed.map((p) => `- [${p.title}](${p.url})${p.description ? `: ${p.description}` : ''}`);
      if (listed.length === 0) lines.push(offset > 0 ? 'No more pages.' : 'The index has no pages.');
      if (next !== undefined) lines.push('', `More pages: call list_pages again with offset ${next}.`);
      return { content: [{ type: 'text', text: lines.join('\n') }], structuredContent: { pages: listed, ...(next !== undefined ? { nextOffset: next } : {}) } };
    }),
  );
  return server;
}

/**
 * A tool whose failures are tool errors in the endpoint's words: a missing database or index says what to run, any
 * other database error says to look at the server's log (where it is written), never a stack.
 */
function guarded<A>(tool: (args: A) => Promise<ToolReply>): (args: A) => Promise<ToolReply> {
  return async (args) => {
    try {
      return await tool(args);
    } catch (e) {
      return failure(e instanceof SiteSearchError ? e.message.replace(/^\[site-search\] /, '') : databaseErrorMessage(e));
    }
  };
}

/** A tool error: the words a model reads, never a stack. */
function failure(message: string): ToolReply {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** The path of a page URL on the site (`origin`), or a site path as given; undefined for another site's URL. */
export function sitePath(url: string, origin: string): string | undefined {
  if (url.startsWith('/') && !url.startsWith('//')) return url.split(/[?#]/)[0];
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  return parsed.origin === new URL(origin).origin ? parsed.pathname : undefined;
}

/** The stored URLs a path may have been written as: with and without its trailing slash, encoded or not. */
function pathVariants(path: string): string[] {
  const decoded = safeDecode(path);
  const forms = new Set<string>();
  for (const p of [path, decoded]) {
    const bare = p.length > 1 ? p.replace(/\/+$/, '') : p;
    forms.add(bare).add(bare === '/' ? bare : `${bare}/`);
  }
  return [...forms];
}

function safeDecode(path: string): string {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}
