/** The MCP server the Astro integration injects at the `mcp` option's route (docs/mcp.md), on demand. */
// @ts-expect-error: provided at build time by the integration's Vite plugin (adapters/astro/runtime-module.ts).
import { analytics, config, database, dev, links, platform } from 'virtual:site-search/runtime';
import type { ResolvedConfig, SearchDatabase } from '../../src/index.js';
import { missingIndexMessage } from '../../src/errors.js';
import { createMcpHandler } from '../../src/mcp/index.js';
import { recordAnalytics } from '../../src/analytics/index.js';
import { onAllowedDomain, type LinkOrigins } from './link-origin.js';
import { platformContext } from './platform.js';

// Page and result URLs are built as the search endpoint's are (the `origin` option, Astro's `site`, an allowed domain,
// the request: link-origin.ts). On Node the handler opens
// the local index itself (`database`); elsewhere the binding is in `env`. With analytics on, assistants' searches are
// counted as the search route's are, apart from them (on Node in the analytics file beside the index).
const { site, allowedDomains } = links as LinkOrigins;
const handler = createMcpHandler(config as ResolvedConfig, {
  origin: site,
  db: database as (() => SearchDatabase) | undefined,
  analytics: analytics as () => SearchDatabase | undefined,
  recordAnalytics,
  // Under astro dev a foreign Host is refused (DNS rebinding), in workerd too, where there may be no NODE_ENV to read.
  devServer: dev as boolean,
});

export const prerender = false;

/** Every method goes to the handler: POST is MCP, OPTIONS a preflight, the rest get a JSON-RPC 405. */
export async function ALL({ request, locals }: { request: Request; locals: object }): Promise<Response> {
  const { env, ctx, missingIndex } = platformContext(platform, locals);
  if (missingIndex) {
    return Response.json({ jsonrpc: '2.0', error: { code: -32603, message: missingIndexMessage(missingIndex) }, id: null }, { status: 500, headers: { 'Cache-Control': 'no-store' } });
  }
  return handler(onAllowedDomain(request, allowedDomains), env, ctx);
}
