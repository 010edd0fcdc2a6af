import QuickLRU from 'quick-lru';
import { workersCache, type SearchCache } from './cache.js';

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
  return workersCache() ?? createMemoryCache({ ttlSeconds });
}
