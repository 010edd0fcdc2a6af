/**
 * `site-search/llms`: llms.txt and llms-full.txt (llmstxt.org) written from the index, for assistants that read a
 * site's summary instead of calling its MCP server. The CLI (`site-search llms`), the Astro and Starlight integrations
 * (`llms: true`) and a Worker (`createWorker(options, { llms: createLlmsHandler })`) all write them here.
 */
import { allPages, type StoredPage } from '../db/pages.js';
import type { SearchDatabase } from '../db/types.js';
import { isSearchDatabase } from '../db/types.js';
import { missingBindingMessage, type HandlerRuntime, type WaitUntilContext } from '../http/handler.js';
import { pageMarkdown } from '../mcp/page-markdown.js';
import { resolveConfig } from '../options/config.js';
import type { ResolvedConfig, SearchOptions } from '../options/options.js';
import { urlResolver } from '../search/urls.js';
import { markdownLink, markdownText } from '../mcp/markdown-text.js';

/** What the files say of the site beyond its pages. */
export interface LlmsSite {
  /** The H1: the site's name. Default: the `mcp` option's `name`, else the origin's host, else "Documentation". */
  name?: string;
  /** The `>` summary. Default: the `mcp` option's `description`, else a sentence naming the page count. */
  summary?: string;
  /** Absolute page URLs are built on it (`https://docs.example.com`); without it they stay paths. */
  origin?: string;
}

/** The sections of llms.txt: one H2 per type when the sources have several, else per top folder of the URLs. */
function groupOf(config: ResolvedConfig): (page: StoredPage) => string {
  if (config.types.length > 1) return (page) => page.type;
  return (page) => page.url.split('/').filter(Boolean)[0] ?? 'Pages';
}


/** llms.txt: `# name`, `> summary`, then per group `## group` and `- [title](url): description` per page. */
export async function llmsTxt(config: ResolvedConfig, db: SearchDatabase, site: LlmsSite = {}): Promise<string> {
  const absolute = urlResolver(site.origin);
  const group = groupOf(config);
  const groups = new Map<string, string[]>();
  let count = 0;
  for await (const page of allPages(db, config.site)) {
    count++;
    const key = group(page);
    const line = `- ${markdownLink(page.title, absolute(page.url))}${page.description ? `: ${markdownText(page.description)}` : ''}`;
    groups.set(key, [...(groups.get(key) ?? []), line]);
  }
  const { name, summary } = described(config, site, count);
  const lines = [`# ${name}`, '', `> ${summary}`];
  for (const [key, entries] of groups) lines.push('', `## ${key}`, '', ...entries);
  return `${lines.join('\n')}\n`;
}

/** llms-full.txt: the H1 and summary, then every page as `get_page` gives it, in URL order. */
export async function* llmsFullTxt(config: ResolvedConfig, db: SearchDatabase, site: LlmsSite = {}): AsyncGenerator<string> {
  const absolute = urlResolver(site.origin);
  const { name, summary } = described(config, site);
  yield `# ${name}\n\n> ${summary}\n`;
  for await (const page of allPages(db, config.site)) yield `\n---\n\n${pageMarkdown(page, absolute(page.url))}`;
}

function described(config: ResolvedConfig, site: LlmsSite, count?: number): { name: string; summary: string } {
  const mcp = config.mcp || undefined;
  const host = site.origin ? new URL(site.origin).host : undefined;
  const name = site.name ?? mcp?.name ?? host ?? 'Documentation';
  const pages = count === undefined ? 'Every page' : `${count} page${count === 1 ? '' : 's'}`;
  const summary = site.summary ?? mcp?.description ?? `${pages} of ${name}, with its title, address and description.`;
  return { name: markdownText(name), summary: markdownText(summary) };
}

/** The routes a Worker serves them at. */
const LLMS_ROUTES = { index: '/llms.txt', full: '/llms-full.txt' } as const;

/**
 * A Fetch handler answering `/llms.txt` and `/llms-full.txt` from the index (a D1 binding, or `runtime.db`), on the
 * request's origin (or the `origin` option). Pass it to `createWorker(options, { llms: createLlmsHandler })`.
 */
export function createLlmsHandler(
  options: SearchOptions | ResolvedConfig,
  runtime: Pick<HandlerRuntime, 'db' | 'origin'> = {},
): (request: Request, env?: object, ctx?: WaitUntilContext | null) => Promise<Response> {
  const config = resolveConfig(options);
  const text = { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': `public, max-age=${config.cacheMaxAge}` };
  return async (request, env) => {
    const url = new URL(request.url);
    const db = (typeof runtime.db === 'function' ? runtime.db() : runtime.db) ?? (env as Record<string, unknown> | undefined)?.[config.binding];
    if (!isSearchDatabase(db)) return Response.json({ error: missingBindingMessage(config.binding, db) }, { status: 500, headers: { 'Cache-Control': 'no-store' } });
    const site = { origin: runtime.origin ? new URL(runtime.origin).origin : config.origin || url.origin };
    if (request.method !== 'GET' && request.method !== 'HEAD') return new Response(null, { status: 405, headers: { Allow: 'GET, HEAD' } });
    if (url.pathname === LLMS_ROUTES.index) return new Response(await llmsTxt(config, db, site), { headers: text });
    const pages = llmsFullTxt(config, db, site);
    const encoder = new TextEncoder();
    // Streamed page by page: a large site's file is never held whole.
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await pages.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      },
    });
    return new Response(body, { headers: text });
  };
}
