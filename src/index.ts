/**
 * site-search: full-text search for Markdown/MDX content sites. This entry is the runtime core: it runs anywhere the
 * Fetch API does (Workers, Node, Deno, Bun, edge functions) and imports nothing from `node:`.
 */
export { createSearchHandler, type HandlerRuntime, type SearchHandler, type WaitUntilContext } from './handler.js';
export { resolveConfig } from './config.js';
export {
  defineSearchOptions,
  DEFAULTS,
  type RecencyOptions,
  type ResolvedConfig,
  type ResolvedSource,
  type SearchOptions,
  type SearchSource,
  type SearchWeights,
} from './options.js';
export { toFtsQuery, normalizeSearchInput, type RawSearchInput, type SearchInput } from './query.js';
export { searchIndex, type MatchStep, type SearchArgs, type SearchResult } from './search.js';
export { ensureSchema, schemaStatements, SCHEMA_VERSION, TABLE } from './schema.js';
export { cacheKey, type SearchCache } from './cache.js';
export { createMemoryCache } from './memory-cache.js';
export { escapeSnippet } from './snippet.js';
export { isSearchDatabase, type SearchDatabase, type SearchStatement, type SqlValue } from './db/types.js';
export { SiteSearchError, SiteSearchConfigError, SearchInputError } from './errors.js';
