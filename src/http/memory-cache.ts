import { workersCache, type SearchCache } from './cache.js';

interface StoredResponse {
  status: number;
  headers: [string, string][];
  body: string;
  /** What the entry holds in memory, estimated: its key, body and headers as UTF-16 strings. */
  bytes: number;
  expires: number;
}

/** Options of {@link createMemoryCache}. */
export interface MemoryCacheOptions {
  /** How long an entry is served, in seconds (the handler passes `cacheMaxAge`). */
  ttlSeconds: number;
  /** At most this many responses. Default 500. */
  maxEntries?: number;
  /**
   * At most this many bytes of responses (estimated as UTF-16 text: keys, bodies and headers). Default 16 MiB: a
   * search answer is 2–15 KB, so the entry count binds first, and a run of unusually large answers cannot grow the
   * process without bound.
   */
  maxBytes?: number;
}

/**
 * A bounded in-process cache with a time-to-live: what the handler uses where there is no `caches.default`
 * (Node, Next.js, SvelteKit on a server). Each process holds its own copy. Least recently used entries go first when
 * either bound is reached; an answer larger than `maxBytes` on its own is not kept.
 */
export function createMemoryCache({ ttlSeconds, maxEntries = 500, maxBytes = 16 * 2 ** 20 }: MemoryCacheOptions): SearchCache {
  // A Map iterates in insertion order: re-inserting an entry on use keeps the least recently used one first.
  const entries = new Map<string, StoredResponse>();
  let bytes = 0;
  const remove = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.bytes;
  };
  return {
    async match(key) {
      const hit = entries.get(key);
      if (!hit) return undefined;
      remove(key);
      if (hit.expires <= Date.now()) return undefined;
      entries.set(key, hit);
      bytes += hit.bytes;
      return new Response(hit.body, { status: hit.status, headers: hit.headers });
    },
    async put(key, response) {
      const body = await response.text();
      const headers = [...response.headers];
      const size = 2 * (key.length + body.length + headers.reduce((n, [name, value]) => n + name.length + value.length, 0));
      remove(key);
      if (size > maxBytes) return;
      entries.set(key, { status: response.status, headers, body, bytes: size, expires: Date.now() + ttlSeconds * 1000 });
      bytes += size;
      for (const oldest of entries.keys()) {
        if (entries.size <= maxEntries && bytes <= maxBytes) break;
        remove(oldest);
      }
    },
  };
}

/** `caches.default` where the platform has it (Cloudflare Workers), else an in-memory cache. */
export function defaultCache(ttlSeconds: number): SearchCache {
  return workersCache() ?? createMemoryCache({ ttlSeconds });
}
