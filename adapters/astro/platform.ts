/** What the Astro routes share about the platform they run on (adapters/astro/runtime-module.ts provides `platform`). */
import type { WaitUntilContext } from '../../src/index.js';
import { missingIndexMessage } from '../../src/errors.js';

/** What the integration's `platform` finds in Astro's `locals`: the bindings, `waitUntil`, and an index that is missing. */
export interface PlatformContext {
  env?: object;
  ctx?: WaitUntilContext;
  missingIndex?: string;
}

/** The platform context of one request, from the runtime module's `platform` and the request's `locals`. */
export function platformContext(platform: unknown, locals: object): PlatformContext {
  return (platform as (locals: object) => PlatformContext)(locals);
}

/** The answer of a route while the index is missing: a 500 whose JSON `error` says how to build it, never cached. */
export function missingIndexResponse(missingIndex: string): Response {
  return Response.json({ error: missingIndexMessage(missingIndex) }, { status: 500, headers: { 'Cache-Control': 'no-store' } });
}
