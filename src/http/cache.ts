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

/**
 * `cache` whose failures are not the answer's: a `match` that throws (the Cache API's storage removed under
 * `wrangler dev`, a custom cache whose backend is down) is a miss, and a `put` that throws is dropped, so the request
 * is answered from the database. The first failure is logged, one line; the rest are not, so a broken cache cannot
 * flood the log.
 */
export function failSafeCache(cache: SearchCache): SearchCache {
  let logged = false;
  const failed = (e: unknown) => {
    if (logged) return;
    logged = true;
    console.error(`[site-search] the response cache failed (${e instanceof Error ? e.message : String(e)}); answering from the database (further cache failures are not logged)`);
  };
  return {
    async match(key) {
      try {
        return await cache.match(key);
      } catch (e) {
        failed(e);
        return undefined;
      }
    },
    async put(key, response) {
      try {
        await cache.put(key, response);
      } catch (e) {
        failed(e);
      }
    },
  };
}
