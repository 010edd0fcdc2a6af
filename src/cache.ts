import QuickLRU from 'quick-lru';
import type { SearchInput } from './query.js';

/**
 * Where responses are cached. The Cache API's `caches.default` (Workers) fits as it is; `createMemoryCache` is the
 * in-process fallback; pass your own to use anything else.
 */
export interface SearchCache {
  match(key: string): Promise<Response | undefined>;
  put(key: string, response: Response): Promise<void>;
}

/**
 * The canonical cache key (SPEC.md caching rules 2–5): only q (lowercased), the clamped limit, offset and type, in
 * that order. The path is the one the handler is mounted at, which is `apiRoute` unless a framework mounts it elsewhere.
 */
export function cacheKey(url: URL, input: SearchInput): string {
  const e = encodeURIComponent;
  // `/api/search/` and `/api/search` are one endpoint: one entry.
  const path = url.pathname.replace(/\/+$/, '') || '/';
  return `${url.origin}${path}?q=${e(input.q)}&limit=${input.limit}&offset=${input.offset}&type=${e(input.type)}`;
}

interface StoredResponse {
  status: number;
  headers: [string, string][];
  body: string;
}

/**
 * A bounded in-process cache with a time-to-live: what the handler uses where there is no `caches.default`
 * (Node, Next.js, SvelteKit on a server). Each process holds its own copy.
 */
export function createMemoryCache({ maxEntries = 500, ttlSeconds }: { maxEntries?: number; ttlSeconds: number }): SearchCache {
  const entries = new QuickLRU<string, StoredResponse>({ maxSize: maxEntries, maxAge: ttlSeconds * 1000 });
  return {
    async match(key) {
      const hit = entries.get(key);
      return hit && new Response(hit.body, { status: hit.status, headers: hit.headers });
    },
    async put(key, response) {
      entries.set(key, { status: response.status, headers: [...response.headers], body: await response.text() });
    },
  };
}

/** `caches.default` where the platform has it (Cloudflare Workers), else an in-memory cache. */
export function defaultCache(ttlSeconds: number): SearchCache {
  const workersCache = (globalThis as { caches?: { default?: Cache } }).caches?.default;
  if (workersCache) {
    return {
      match: async (key) => (await workersCache.match(key)) ?? undefined,
      put: (key, response) => workersCache.put(key, response),
    };
  }
  return createMemoryCache({ ttlSeconds });
}
