/**
 * Each page of the index as Markdown at `<page path>.md` (docs/mcp.md, "Pages as Markdown"), added with `llms` on. A
 * middleware, not an injected route: Astro ranks a site's own `/docs/[slug]` above a `/[...page].md`, so a route
 * would never see `/docs/install.md`. Runs for on-demand requests; every other path goes on untouched.
 */
// @ts-expect-error: provided at build time by the integration's Vite plugin (adapters/astro/runtime-module.ts).
import { config, database, dev, links, platform } from 'virtual:site-search/runtime';
import type { ResolvedConfig, SearchDatabase, WaitUntilContext } from '../../src/index.js';
import { missingIndexMessage } from '../../src/errors.js';
import { createLlmsHandler } from '../../src/llms/index.js';
import { markdownPagePath } from '../../src/llms/markdown-path.js';
import { onAllowedDomain, type LinkOrigins } from './link-origin.js';

interface PlatformContext {
  env?: object;
  ctx?: WaitUntilContext;
  missingIndex?: string;
}

// The page's links are absolute on the origin the endpoint's are (link-origin.ts). Under `astro dev` nothing is cached:
// the page changes as it is written and re-indexed.
const { site, allowedDomains } = links as LinkOrigins;
const resolved = config as ResolvedConfig;
const handler = createLlmsHandler(dev ? { ...resolved, cacheMaxAge: 0 } : resolved, {
  origin: site,
  db: database as (() => SearchDatabase) | undefined,
});

/** `.md` paths are answered from the index (GET and HEAD; other methods the handler's 405); the rest go to Astro. */
export async function onRequest({ request, locals }: { request: Request; locals: object }, next: () => Promise<Response>): Promise<Response> {
  // Only the `.md` suffix: `Accept: text/markdown` on a page path would also reach the search and MCP routes.
  if (!new URL(request.url).pathname.endsWith('.md') || markdownPagePath(request) === undefined) return next();
  const { env, ctx, missingIndex } = (platform as (locals: object) => PlatformContext)(locals);
  if (missingIndex) return Response.json({ error: missingIndexMessage(missingIndex) }, { status: 500, headers: { 'Cache-Control': 'no-store' } });
  return handler(onAllowedDomain(request, allowedDomains), env, ctx);
}
