/**
 * site-search: full-text search for Markdown/MDX content sites. This entry is the runtime core: it runs anywhere the
 * Fetch API does (Workers, Node, Deno, Bun, edge functions) and imports nothing from `node:`. It exports what a site's
 * code calls (docs/api.md lists every name); the modules behind it are internal.
 */
export { createSearchHandler, type HandlerRuntime, type SearchHandler, type WaitUntilContext } from './http/handler.js';
export { resolveConfig } from './options/config.js';
export {
  defineSearchOptions,
  type AnalyticsOptions,
  type RecencyOptions,
  type ResolvedConfig,
  type ResolvedSource,
  type SearchOptions,
  type SearchSource,
  type SearchWeights,
} from './options/options.js';
export { searchIndex, type SearchArgs } from './search/search-index.js';
export type { MatchStep, SearchResult } from './search/search.js';
export type { Ranking } from './ranking/types.js';
export { toFtsQuery, type RawSearchInput, type SearchInput } from './search/query.js';
export type { SearchCache } from './http/cache.js';
export { createMemoryCache } from './http/memory-cache.js';
export { isSearchDatabase, type SearchDatabase, type SearchStatement, type SqlValue } from './db/types.js';
export { SiteSearchError, SiteSearchConfigError, SearchInputError } from './errors.js';
