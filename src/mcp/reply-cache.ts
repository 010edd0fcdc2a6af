/**
 * The tools' replies kept as the endpoint keeps its answers (issue 54, items 2 and 4b): in the Cache API on Workers, in
 * the process's memory elsewhere, for `cacheMaxAge` seconds, keyed by the tool and its arguments as validated (a
 * search's key is the endpoint's cache key under the MCP route). A repeated call reads nothing from the database.
 */
import { cacheKey, type SearchCache } from '../http/cache.js';
import type { AnswerBody } from '../analytics/events.js';
import type { SearchInput } from '../search/query.js';

/** A tool's answer: text for every client, `structuredContent` for those that read it. */
export type ToolReply = { content: { type: 'text'; text: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };

/** A reply as kept, and for a search what analytics count of it (a cached search is a search made, as on the endpoint). */
export interface StoredReply {
  reply: ToolReply;
  counted?: AnswerBody;
}

/** Where the replies of one MCP route are kept. */
export interface ReplyCache {
  match(key: string): Promise<StoredReply | undefined>;
  put(key: string, stored: StoredReply): Promise<void>;
}

/** Replies kept in `cache` (the handler's, already fail-safe), each alive `maxAge` seconds. */
export function replyCache(cache: SearchCache, maxAge: number): ReplyCache {
  return {
    async match(key) {
      const hit = await cache.match(key);
      return hit ? ((await hit.json()) as StoredReply) : undefined;
    },
    put(key, stored) {
      // The Cache API keeps a response for as long as its own Cache-Control says.
      const headers = { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': `public, max-age=${maxAge}` };
      return cache.put(key, new Response(JSON.stringify(stored), { headers }));
    },
  };
}

/** The keys of one route's tools: the route's own URL (`https://docs.example.com/mcp`) and the tool under it. */
export const replyKeys = (route: string) => ({
  search: (input: SearchInput, maxTokens: number) => `${cacheKey(new URL(`${route}/tools/search`), input)}&maxTokens=${maxTokens}`,
  page: (path: string, anchor?: string) => `${route}/tools/get_page?url=${encodeURIComponent(path)}${anchor ? `&section=${encodeURIComponent(anchor)}` : ''}`,
  list: (type: string, cursor: string) => `${route}/tools/list_pages?type=${encodeURIComponent(type)}&cursor=${encodeURIComponent(cursor)}`,
});
