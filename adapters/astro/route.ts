/** The endpoint the Astro integration injects at `apiRoute`. */
// @ts-expect-error: provided at build time by the integration's Vite plugin (adapters/astro/runtime-module.ts).
import { analytics, config, database, dev, links, platform } from 'virtual:site-search/runtime';
import { createSearchHandler, type ResolvedConfig, type SearchDatabase } from '../../src/index.js';
import { createDevSearchHandler } from '../../src/http/dev-server.js';
import { onAllowedDomain, type LinkOrigins } from './link-origin.js';
import { platformContext, missingIndexResponse } from './platform.js';

// Result URLs are built on the `origin` option, else Astro's `site`, else an allowed domain, else the request's URL as
// Astro reports it (link-origin.ts; under `astro dev`, the request). Under `astro dev` (where workerd may have no
// NODE_ENV to read, so the integration says so) nothing is cached. With analytics on, a Node server writes them to
// their own file beside the index (the index is opened read-only).
const { site, allowedDomains } = links as LinkOrigins;
const runtime = { analytics: analytics as () => SearchDatabase | undefined, db: database as (() => SearchDatabase) | undefined, origin: site };
const handler = dev ? createDevSearchHandler(config as ResolvedConfig, runtime) : createSearchHandler(config as ResolvedConfig, runtime);

export const prerender = false;

/** Every method goes to the handler: GET/HEAD search, OPTIONS is CORS preflight, POST a click report (analytics on), the rest get 405. */
export async function ALL({ request, locals }: { request: Request; locals: object }): Promise<Response> {
  const { env, ctx, missingIndex } = platformContext(platform, locals);
  if (missingIndex) return missingIndexResponse(missingIndex);
  return handler(onAllowedDomain(request, allowedDomains), env, ctx);
}
