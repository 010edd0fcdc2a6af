/**
 * The three tools on an SDK server: `search` (the endpoint's search, same engine and limits), `get_page` (a page of
 * the index as Markdown) and `list_pages` (the pages, paged). Their descriptions are written for a model: what the
 * site is and when to call which tool.
 */
import { McpServer } from '@modelcontextprotocol/server';
import { billsRowsRead, forSearch } from '../db/d1.js';
import { listPages, readPage, readWritten } from '../db/pages.js';
import type { SearchDatabase } from '../db/types.js';
import { SiteSearchError } from '../errors.js';
import type { McpOptions, ResolvedConfig } from '../options/options.js';
import { codePointLength } from '../text/code-points.js';
import { MIN_QUERY_LENGTH } from '../text/query-length.js';
import { runSearch } from '../search/search.js';
import { urlResolver } from '../search/urls.js';
import { LIST_PAGE_SIZE, listArguments, pageArguments, searchArguments, type Checked, type SearchArguments } from './arguments.js';
import { outlineOf, pageMarkdown, pathVariants, resultSection } from './page-markdown.js';
import { ANSWER_JSON_SCHEMA, toolAnswer } from './results.js';
import { markdownLink, markdownText } from './markdown-text.js';
import { replyKeys, type ReplyCache, type StoredReply, type ToolReply } from './reply-cache.js';
import type { SearchInput } from '../search/query.js';
import type { SearchResult } from '../search/results.js';
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
  /** The MCP route's URL (`https://docs.example.com/mcp`): the tools' replies are kept under it. */
  route: string;
  /** Where replies are kept between requests; absent under a dev server or with `cacheMaxAge: 0`. */
  replies?: ReplyCache;
  /**
   * Claims the request's one read of the database: true the first time, false after. A JSON-RPC batch (up to 10 calls
   * in one request) so reads the database for one call at most, as a request to the endpoint does; its other calls are
   * answered from the cache or asked to come in requests of their own, where whatever protects readers (a rate limit,
   * the Node pool's turns) counts each.
   */
  claimRead(): boolean;
  /** The words of a tool error for a database error (a damaged local index is logged once, as the endpoint does). */
  failed(e: unknown): Promise<string>;
  /** A Worker's `ctx.waitUntil`, for work after the answer (loading the typo index, keeping a reply). */
  background?: (work: Promise<unknown>) => void;
  /** Called after each search the `search` tool answers, from the cache too (analytics, counted as an assistant's). */
  searched?: (input: SearchInput, outcome: AnswerBody) => void;
}

/** The package version the server reports (`serverInfo`). */
const VERSION = '0.1.0';

/** The tool error of a batch's second call that would read the database. */
export const ONE_READ_PER_REQUEST =
  'This request already read the index for another call of its batch: send this call in a request of its own (one call per request reads the index; calls answered before are answered from the cache).';

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
  const keys = replyKeys(context.route);
  // Reads go through the Sessions API where the database has it (D1): the nearest read replica answers, as for a search.
  const db = () => forSearch(context.db());

  /** The reply kept under `key`, else `read`'s (kept when it is no error), if this request may still read. */
  async function answer(key: string, read: () => Promise<StoredReply>): Promise<StoredReply> {
    const hit = await context.replies?.match(key);
    if (hit) return hit;
    if (!context.claimRead()) return { reply: failure(ONE_READ_PER_REQUEST) };
    const stored = await read();
    if (context.replies && !stored.reply.isError) {
      const kept = context.replies.put(key, stored);
      if (context.background) context.background(kept);
      else await kept;
    }
    return stored;
  }

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
    guarded(context, async ({ search: input, maxTokens }: SearchArguments): Promise<ToolReply> => {
      if (codePointLength(input.q) < MIN_QUERY_LENGTH) return failure(`Query too short (at least ${MIN_QUERY_LENGTH} characters)`);
      const { reply, counted } = await answer(keys.search(input, maxTokens), async () => {
        const outcome = await search(input);
        const sections = await bestSections(outcome.results);
        const { answer: found, text } = toolAnswer(input, outcome, config.maxOffset, { maxTokens, sectionOf: (i) => sections[i] });
        const counted = { results: outcome.results.map((r) => ({ match: r.match })), ...(outcome.suggestion ? { suggestion: outcome.suggestion } : {}) };
        return { reply: { content: [{ type: 'text', text }], structuredContent: found }, counted };
      });
      if (counted) context.searched?.(input, counted);
      return reply;
    }),
  );

  server.registerTool(
    'get_page',
    {
      title: 'Read a page',
      description:
        `Read one page of ${site} as Markdown, as its author wrote it (code blocks whole): its title, URL and description, then the page. ` +
        'Give a URL that search or list_pages returned, or the page\'s path on the site; a URL with a #section (as search gives) returns that section alone, with the page\'s outline to read another. ' +
        'Call it to read what a search result only summarizes.',
      inputSchema: pageArguments(),
      annotations: readOnly,
    },
    guarded(context, async ({ url }: { url: string }): Promise<ToolReply> => {
      const path = sitePath(url, context.origin);
      if (path === undefined) return failure(`Not a page of this site: ${url.slice(0, 200)}. Give a URL on ${context.origin} from search or list_pages.`);
      const anchor = anchorOf(url);
      const { reply } = await answer(keys.page(path, anchor), async () => {
        const page = await readPage(db(), config.site, pathVariants(path));
        if (!page) return { reply: failure(`No page at ${url.slice(0, 200)} in this site's index. Search for it, or browse with list_pages.`) };
        return { reply: { content: [{ type: 'text', text: pageMarkdown(page, absolute(page.url), anchor) }] } };
      });
      return reply;
    }),
  );

  server.registerTool(
    'list_pages',
    {
      title: 'List the pages',
      description:
        `List the pages of ${site} with their titles, URLs and descriptions, up to ${LIST_PAGE_SIZE} at a time in URL order` +
        (config.types.length > 1 ? `, of every type or one (${config.types.join(', ')})` : '') +
        '. Call it for an overview of what the site covers, or when search finds nothing; pass the nextCursor it returns for the next pages.',
      inputSchema: listArguments(config),
      annotations: readOnly,
    },
    guarded(context, async ({ type, cursor }: { type: string; cursor: string }): Promise<ToolReply> => {
      const { reply } = await answer(keys.list(type, cursor), async () => {
        const { pages, next } = await listPages(db(), config.site, { type, after: cursor, limit: LIST_PAGE_SIZE });
        const listed = pages.map((p) => ({ title: p.title, url: absolute(p.url), description: p.description, type: p.type }));
        const lines = listed.map((p) => `- ${markdownLink(p.title, p.url)}${p.description ? `: ${markdownText(p.description)}` : ''}`);
        if (listed.length === 0) lines.push(next !== undefined ? 'No pages of this type in this part of the list.' : cursor ? 'No more pages.' : 'The index has no pages.');
        // The cursor is a stored URL: JSON-quoted, so no character of it can end the line's text.
        if (next !== undefined) lines.push('', `More pages: call list_pages again with cursor ${JSON.stringify(next)}.`);
        return { reply: { content: [{ type: 'text', text: lines.join('\n') }], structuredContent: { pages: listed, ...(next !== undefined ? { nextCursor: next } : {}) } } };
      });
      return reply;
    }),
  );
  return server;

  /** One search, on the database the request names, through its read replicas where it has them. */
  function search(input: SearchInput) {
    const given = context.db();
    return runSearch(config, forSearch(given), input, { origin: context.origin, rowsBilled: billsRowsRead(given), rankings: context.rankings });
  }

  /**
   * Each result's best section as written (its section's, or its page's opening), read for every result's page in one
   * statement after the search (whose statements never read a page's Markdown); undefined for a page without it.
   */
  async function bestSections(results: readonly SearchResult[]): Promise<(string | undefined)[]> {
    const paths = results.map((r) => sitePath(r.url, context.origin));
    const written = await readWritten(db(), config.site, [...new Set(paths.flatMap((p) => (p === undefined ? [] : pathVariants(p))))]);
    return results.map((r, i) => {
      const page = paths[i] === undefined ? undefined : pathVariants(paths[i]).map((v) => written.get(v)).find(Boolean);
      if (!page) return undefined;
      return resultSection(page.markdown, outlineOf(page), r.section ? anchorOf(r.section.url) : undefined);
    });
  }
}

/**
 * A tool whose failures are tool errors in the endpoint's words: arguments it refuses say what is wrong with them, a
 * missing database or index says what to run, any other database error says to look at the server's log (where it is
 * written), never a stack.
 */
function guarded<A>(context: ToolContext, tool: (args: A) => Promise<ToolReply>): (args: Checked<A>) => Promise<ToolReply> {
  return async (args) => {
    if (!args.ok) return failure(args.error);
    try {
      return await tool(args.value);
    } catch (e) {
      return failure(e instanceof SiteSearchError ? e.message.replace(/^\[site-search\] /, '') : await context.failed(e));
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

/** The `#section` of a URL, decoded (`#install` → `install`), or undefined when it names none. */
export function anchorOf(url: string): string | undefined {
  const at = url.indexOf('#');
  if (at < 0 || at === url.length - 1) return undefined;
  const hash = url.slice(at + 1);
  try {
    return decodeURIComponent(hash);
  } catch {
    return hash;
  }
}
