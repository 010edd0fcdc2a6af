import type { SearchInput } from '../search/query.js';

/**
 * Where responses are cached. The Cache API's `caches.default` (Workers) fits as it is; `createMemoryCache` is the
 * in-process fallback; pass your own to use anything else.
 */
export interface SearchCache {
  match(key: string): Promise<Response | undefined>;
  put(key: string, response: Response): Promise<void>;
}

/**
 * The canonical cache key (docs/http-api.md, "The cache key"): only q (lowercased), the clamped limit, offset and type, in
 * that order, then the tags (sorted) and the facets when asked for, so that a filtered or counted answer never stands
 * in for a plain one (and a plain search keeps the key it always had). The path is the one the handler is mounted at, which is `apiRoute` unless a framework mounts it elsewhere.
 */
export function cacheKey(url: URL, input: SearchInput): string {
  const e = encodeURIComponent;
  // `/api/search/` and `/api/search` are one endpoint: one entry.
  const path = url.pathname.replace(/\/+$/, '') || '/';
  const tags = input.tags.length ? `&tags=${input.tags.map(e).join(',')}` : '';
  const facets = input.facets.length ? `&facets=${input.facets.join(',')}` : '';
  return `${url.origin}${path}?q=${e(input.q)}&limit=${input.limit}&offset=${input.offset}&type=${e(input.type)}${tags}${facets}`;
}

/** The Cache API's `caches.default` where the platform has it (Cloudflare Workers), else undefined. */
export function workersCache(): SearchCache | undefined {
  const cache = (globalThis as { caches?: { default?: Cache } }).caches?.default;
  if (!cache) return undefined;
  return {
    match: async (key) => (await cache.match(key)) ?? undefined,
    put: (key, response) => cache.put(key, response),
  };
}
