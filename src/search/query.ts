import { SearchInputError } from '../errors.js';
import { DEFAULTS, type ResolvedConfig } from '../options/options.js';
import { segmentUnspaced } from '../text/segment.js';
import { codePointLength } from '../text/code-points.js';
import { parseFacets, parseTags, type FacetName } from './facets.js';

/** `limit` when the request has none. */
export const DEFAULT_LIMIT = 10;

/**
 * Turns raw user input into a safe FTS5 match expression (docs/http-api.md, "Query handling", rules 1–4): quotes and backticks become
 * spaces, the input is split on whitespace and capped at `maxTerms`, every term is quoted so operators (AND, OR, NOT,
 * NEAR, `*`, `-`, `:`) are plain words, and the last term gets `*` so it matches by prefix.
 *
 * @example toFtsQuery('astro OR "client:load"') // '"astro" "OR" "client:load"*'
 * @returns `''` when the input holds no term.
 */
export function toFtsQuery(query: string, maxTerms: number = DEFAULTS.maxTerms): string {
  const terms = splitTerms(query, maxTerms);
  if (terms.length === 0) return '';
  return `${terms.map((t) => `"${t}"`).join(' ')}*`;
}

/**
 * Rules 1–2: quotes and backticks become spaces, split on whitespace, at most `maxTerms`. Control characters split
 * too: they are never part of an indexed word, and a NUL would end FTS5's parse mid-string (a 500).
 */
function splitTerms(query: string, maxTerms: number): string[] {
  return query
    // eslint-disable-next-line no-control-regex
    .replace(/["'`\u0000-\u001f\u007f]/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, maxTerms);
}

/**
 * The terms the engine searches for: SPEC rules 1–2 after splitting unspaced scripts (Chinese, Japanese, Thai…)
 * into words, exactly as the indexer split them.
 */
export function searchTerms(query: string, maxTerms: number = DEFAULTS.maxTerms): string[] {
  return searchWords(query).slice(0, maxTerms);
}

/** Every word of the query, split as {@link searchTerms} splits it but not capped: what a long question is reduced from. */
export function searchWords(query: string): string[] {
  return splitTerms(segmentUnspaced(query, ' '), Infinity);
}

/** A search request after validation: what the database is asked and what the cache is keyed by. */
export interface SearchInput {
  /** Trimmed and lowercased: FTS5 matching is case-insensitive, so case never changes the results or the cache entry. */
  q: string;
  /** `''` when absent. */
  type: string;
  /** Tags every match must carry (whole tags, exact), sorted; empty when absent. */
  tags: string[];
  /** The facets to count (`type`, `tags`, in that order); empty when absent. */
  facets: FacetName[];
  /** Clamped to `maxLimit`. */
  limit: number;
  offset: number;
}

/** Raw search parameters, as strings from a query string or as values from code. */
export interface RawSearchInput {
  q?: string | null;
  type?: string | null;
  /** Repeated or comma-separated (docs/http-api.md, "Filters and facets"). */
  tags?: string | readonly string[] | null;
  /** `type`, `tags` or both, comma-separated. */
  facets?: string | readonly string[] | null;
  limit?: number | string | null;
  offset?: number | string | null;
}

/**
 * Validates and normalises search parameters. Throws {@link SearchInputError} with the exact 400 message.
 * Order: limit, offset, type, tags, facets, query length (so the most structural mistake is reported first).
 * `maxQueryLength`: the endpoint's (`maxQueryLength`) unless a caller has its own (the MCP tool's `mcp.maxQueryLength`).
 */
export function normalizeSearchInput(config: ResolvedConfig, raw: RawSearchInput, maxQueryLength = config.maxQueryLength): SearchInput {
  const limit = parseInteger(raw.limit, DEFAULT_LIMIT);
  if (limit === undefined || limit < 1) throw new SearchInputError('Invalid limit');

  const offset = parseInteger(raw.offset, 0);
  if (offset === undefined || offset < 0 || offset > config.maxOffset) {
    throw new SearchInputError(`Invalid offset (0 to ${config.maxOffset})`);
  }

  const type = raw.type ?? '';
  if (type !== '' && !config.types.includes(type)) {
    throw new SearchInputError(`Invalid type. One of: ${config.types.join(', ')}`);
  }

  const tags = parseTags(raw.tags);
  const facets = parseFacets(raw.facets);

  const q = (raw.q ?? '').trim();
  if (codePointLength(q) > maxQueryLength) {
    throw new SearchInputError(`Query too long (max ${maxQueryLength} characters)`);
  }

  return { q: q.toLowerCase(), type, tags, facets, limit: Math.min(limit, config.maxLimit), offset };
}

/** Base-10 integers only: `1.5`, `1e2`, `0x10`, `abc` and `''` are invalid. */
function parseInteger(value: number | string | null | undefined, fallback: number): number | undefined {
  if (value === null || value === undefined) return fallback;
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined;
  const text = value.trim();
  if (!/^[+-]?\d{1,15}$/.test(text)) return undefined;
  return Number(text);
}
