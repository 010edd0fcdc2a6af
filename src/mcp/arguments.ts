/**
 * The tools' arguments: their JSON Schema (what a model reads in `tools/list`) and their validation, as Standard Schema
 * objects the SDK accepts. The `search` arguments are validated by the endpoint's own `normalizeSearchInput`, so a
 * tool call meets the same limits and the same words as a 400 from the endpoint; no second schema library is shipped.
 */
import { SearchInputError } from '../errors.js';
import { MCP_DEFAULTS, type ResolvedConfig } from '../options/options.js';
import { normalizeSearchInput, type SearchInput } from '../search/query.js';
import { MAX_TAGS } from '../search/facets.js';
import { DEFAULT_MAX_TOKENS, MAX_MAX_TOKENS, MIN_MAX_TOKENS } from './sized-markdown.js';

/** The longest `url` get_page accepts: longer than any page address, short enough to refuse a flood. */
export const MAX_URL_LENGTH = 2048;
/** Pages a `list_pages` call returns. */
export const LIST_PAGE_SIZE = 50;

type JsonSchema = Record<string, unknown>;
type Issue = { message: string; path?: string[] };
type Outcome<T> = { value: T } | { issues: Issue[] };

/**
 * A tool's arguments as checked: their value, or what is wrong with them in the endpoint's words. A refusal is not a
 * validation failure for the SDK, which would prefix the words with its own ("Input validation error: Invalid
 * arguments for tool search: …"): the tool answers it as a tool error of its own (docs/mcp.md lists the words).
 */
export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

/** A Standard Schema (v1) with its JSON Schema (StandardJSONSchemaV1), the shape `registerTool` takes. */
export interface ToolSchema<T> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: 'site-search';
    validate(value: unknown): Outcome<T>;
    readonly jsonSchema: { input(options?: unknown): JsonSchema; output(options?: unknown): JsonSchema };
    readonly types?: { readonly input: unknown; readonly output: T };
  };
}

/**
 * A schema whose JSON Schema is `json` and whose validation is `check` (which throws SearchInputError with the words):
 * arguments it refuses come to the tool as a {@link Checked} refusal.
 */
function toolSchema<T>(json: JsonSchema, check: (args: Record<string, unknown>) => T): ToolSchema<Checked<T>> {
  return {
    '~standard': {
      version: 1,
      vendor: 'site-search',
      validate(value) {
        if (value === null || typeof value !== 'object' || Array.isArray(value)) return { value: { ok: false, error: 'Arguments must be an object' } };
        try {
          return { value: { ok: true, value: check(value as Record<string, unknown>) } };
        } catch (e) {
          if (e instanceof SearchInputError) return { value: { ok: false, error: e.message } };
          throw e;
        }
      },
      jsonSchema: { input: () => json, output: () => json },
    },
  };
}

/** Refuses keys the tool does not take (a model's misspelt `limt` should hear so, not be ignored). */
function onlyKeys(args: Record<string, unknown>, known: string[]): void {
  const unknown = Object.keys(args).find((k) => !known.includes(k));
  if (unknown !== undefined) throw new SearchInputError(`Unknown argument "${unknown.slice(0, 40)}". Arguments: ${known.join(', ')}`);
}

const isInteger = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

/** The `search` tool's arguments as checked: the endpoint's search, and the answer's token budget. */
export interface SearchArguments {
  search: SearchInput;
  maxTokens: number;
}

/**
 * The `search` tool's arguments, checked and normalised as the endpoint's query string is, but for the question's length
 * (`mcp.maxQueryLength`: an assistant asks in sentences), and `maxTokens`, the answer's size.
 */
export function searchArguments(config: ResolvedConfig): ToolSchema<Checked<SearchArguments>> {
  const types = config.types;
  const maxQueryLength = config.mcp ? config.mcp.maxQueryLength : MCP_DEFAULTS.maxQueryLength;
  return toolSchema<SearchArguments>(
    {
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 1, maxLength: maxQueryLength, description: 'What to look for: a question or a few words.' },
        limit: { type: 'integer', minimum: 1, maximum: config.maxLimit, description: `How many results (default 10, at most ${config.maxLimit}).` },
        offset: { type: 'integer', minimum: 0, maximum: config.maxOffset, description: 'How many results to skip, to page through them.' },
        ...(types.length > 1 ? { type: { type: 'string', enum: [...types], description: 'Only pages of this type.' } } : {}),
        tags: { type: 'array', items: { type: 'string' }, maxItems: MAX_TAGS, description: 'Only pages carrying every one of these tags.' },
        maxTokens: {
          type: 'integer',
          minimum: MIN_MAX_TOKENS,
          maximum: MAX_MAX_TOKENS,
          description: `The most tokens the answer may take (default ${DEFAULT_MAX_TOKENS}, at most ${MAX_MAX_TOKENS}): each result carries its best section as written, cut to fit (a code block whole or not at all).`,
        },
      },
      required: ['query'],
      additionalProperties: false,
    },
    (args) => {
      onlyKeys(args, ['query', 'limit', 'offset', 'type', 'tags', 'maxTokens']);
      const { query, limit, offset, type, tags, maxTokens = DEFAULT_MAX_TOKENS } = args;
      if (typeof query !== 'string' || query.trim() === '') throw new SearchInputError('Missing query: give the words to search for');
      if (limit !== undefined && !isInteger(limit)) throw new SearchInputError('Invalid limit');
      if (offset !== undefined && !isInteger(offset)) throw new SearchInputError(`Invalid offset (0 to ${config.maxOffset})`);
      if (type !== undefined && typeof type !== 'string') throw new SearchInputError(`Invalid type. One of: ${types.join(', ')}`);
      if (tags !== undefined && !(Array.isArray(tags) && tags.every((t) => typeof t === 'string'))) {
        throw new SearchInputError('Invalid tags: a list of tag names');
      }
      if (!isInteger(maxTokens) || maxTokens < MIN_MAX_TOKENS || maxTokens > MAX_MAX_TOKENS) {
        throw new SearchInputError(`Invalid maxTokens (${MIN_MAX_TOKENS} to ${MAX_MAX_TOKENS})`);
      }
      const search = normalizeSearchInput(config, { q: query, limit: limit ?? null, offset: offset ?? null, type: type ?? null, tags: tags ?? null }, maxQueryLength);
      return { search, maxTokens };
    },
  );
}

/** The `get_page` tool's argument: the page's URL or path. */
export function pageArguments(): ToolSchema<Checked<{ url: string }>> {
  return toolSchema(
    {
      type: 'object',
      properties: {
        url: { type: 'string', minLength: 1, maxLength: MAX_URL_LENGTH, description: 'The page: a URL a search result gave, or its path on the site (/guides/install/).' },
      },
      required: ['url'],
      additionalProperties: false,
    },
    (args) => {
      onlyKeys(args, ['url']);
      const { url } = args;
      if (typeof url !== 'string' || url.trim() === '') throw new SearchInputError('Missing url: give a page URL from a search result');
      if (url.length > MAX_URL_LENGTH) throw new SearchInputError(`URL too long (max ${MAX_URL_LENGTH} characters)`);
      return { url: url.trim() };
    },
  );
}

/** The `list_pages` tool's arguments: a type, and where to go on (the `nextCursor` of the call before). */
export function listArguments(config: ResolvedConfig): ToolSchema<Checked<{ type: string; cursor: string }>> {
  const types = config.types;
  return toolSchema(
    {
      type: 'object',
      properties: {
        ...(types.length > 1 ? { type: { type: 'string', enum: [...types], description: 'Only pages of this type.' } } : {}),
        cursor: { type: 'string', maxLength: MAX_URL_LENGTH, description: `Where to go on: the nextCursor the previous call returned (${LIST_PAGE_SIZE} pages come per call).` },
      },
      additionalProperties: false,
    },
    (args) => {
      onlyKeys(args, ['type', 'cursor']);
      const { type = '', cursor = '' } = args;
      if (typeof type !== 'string' || (type !== '' && !types.includes(type))) throw new SearchInputError(`Invalid type. One of: ${types.join(', ')}`);
      if (typeof cursor !== 'string' || cursor.length > MAX_URL_LENGTH) throw new SearchInputError(`Invalid cursor: give the nextCursor a list_pages call returned (at most ${MAX_URL_LENGTH} characters)`);
      return { type, cursor };
    },
  );
}
