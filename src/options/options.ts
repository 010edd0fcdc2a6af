/**
 * The one options schema. The Astro integration, the route adapters, the indexer and the CLI all read their options
 * through `resolveConfig`, so every part of the product agrees on defaults and on what is invalid.
 */
import * as v from 'valibot';

/** The defaults (docs/configuration.md lists each option with its default). */
export const DEFAULTS = {
  binding: 'SEARCH_DB',
  site: '',
  maxContentLength: 8000,
  apiRoute: '/api/search',
  cors: true,
  cacheMaxAge: 300,
  maxLimit: 25,
  maxOffset: 200,
  maxQueryLength: 100,
  weights: { title: 10, description: 5, content: 1, tags: 3 },
  recency: { boost: 0.35, windowDays: 1095 },
  maxTerms: 8,
  snippetTokens: 24,
  sqlitePath: '.site-search/search.db',
  skipDirs: ['Templates'],
  widen: true,
  ranking: 'fields',
  origin: '',
} as const;

/** FTS5's snippet() accepts at most 64 tokens. */
export const MAX_SNIPPET_TOKENS = 64;

const positiveInt = (what: string) =>
  v.pipe(v.number(), v.integer(`${what} must be a whole number`), v.minValue(1, `${what} must be at least 1`));
const nonNegativeInt = (what: string) =>
  v.pipe(v.number(), v.integer(`${what} must be a whole number`), v.minValue(0, `${what} must be 0 or more`));
const nonNegative = v.pipe(v.number(), v.finite('must be a finite number'), v.minValue(0, 'must be 0 or more'));
const nonEmptyString = v.pipe(v.string('must be a string'), v.trim(), v.nonEmpty('must not be empty'));

const SourceEntries = {
  dir: v.optional(nonEmptyString),
    files: v.optional(v.pipe(v.array(nonEmptyString), v.nonEmpty('must list at least one file'))),
    type: nonEmptyString,
    url: v.pipe(v.string('must be a string'), v.nonEmpty('must not be empty')),
    skipDirs: v.optional(v.array(nonEmptyString), () => [...DEFAULTS.skipDirs]),
    emoji: v.optional(v.string('must be a string'), ''),
    recency: v.optional(v.boolean('must be true or false'), true),
};

/** The keys a source may have. */
export const SOURCE_KEYS = Object.keys(SourceEntries);

const SourceSchema = v.pipe(
  v.object(SourceEntries),
  v.partialCheck(
    [['dir'], ['files']],
    (s) => (s.dir === undefined) !== (s.files === undefined),
    'needs exactly one of "dir" or "files"',
  ),
  v.forward(
    v.partialCheck(
      [['url'], ['files']],
      // One explicit file maps to one fixed URL, so it needs no :slug.
      (s) => s.url.includes(':slug') || s.files?.length === 1,
      'must contain ":slug"',
    ),
    ['url'],
  ),
);

/** The options object (docs/configuration.md), validated by `resolveConfig`. */
export const OptionsSchema = v.object({
  database: nonEmptyString,
  binding: v.optional(
    v.pipe(
      v.string('must be a string'),
      v.regex(/^[A-Za-z_$][\w$]*$/, 'must be a JavaScript identifier such as "SEARCH_DB"'),
    ),
    DEFAULTS.binding,
  ),
  site: v.optional(
    v.pipe(
      v.string('must be a string'),
      v.maxLength(200, 'must be at most 200 characters'),
      // Stored and compared as written in every statement: a character the SQL writer drops (controls, lone
      // surrogates) or the snippet sentinels (private use) would make a push delete another site's rows.
      v.check(
        (site) => site.isWellFormed() && !/[\p{Cc}\p{Co}]/u.test(site),
        'must be printable text (no control characters, private-use characters or lone surrogates), such as "docs"',
      ),
    ),
    DEFAULTS.site,
  ),
  sources: v.pipe(
    v.array(SourceSchema, 'must be an array of sources'),
    v.nonEmpty('must list at least one source'),
    // Recency is decided per row at search time, where a row knows its type but not its source.
    v.check(
      (sources) => sources.every((a) => sources.every((b) => a.type !== b.type || a.recency === b.recency)),
      'those sharing a type must set the same "recency" (true or false), since it applies per type at search time',
    ),
  ),
  maxContentLength: v.optional(positiveInt('maxContentLength'), DEFAULTS.maxContentLength),
  apiRoute: v.optional(
    v.union(
      [v.literal(false), v.pipe(v.string(), v.startsWith('/', 'must start with "/"'))],
      'must be a route starting with "/", or false',
    ),
    DEFAULTS.apiRoute,
  ),
  cors: v.optional(v.boolean('must be true or false'), DEFAULTS.cors),
  cacheMaxAge: v.optional(nonNegativeInt('cacheMaxAge'), DEFAULTS.cacheMaxAge),
  maxLimit: v.optional(positiveInt('maxLimit'), DEFAULTS.maxLimit),
  maxOffset: v.optional(nonNegativeInt('maxOffset'), DEFAULTS.maxOffset),
  maxQueryLength: v.optional(positiveInt('maxQueryLength'), DEFAULTS.maxQueryLength),
  weights: v.optional(
    v.object({
      title: v.optional(nonNegative, DEFAULTS.weights.title),
      description: v.optional(nonNegative, DEFAULTS.weights.description),
      content: v.optional(nonNegative, DEFAULTS.weights.content),
      tags: v.optional(nonNegative, DEFAULTS.weights.tags),
    }),
    {},
  ),
  recency: v.optional(
    v.object({
      boost: v.optional(nonNegative, DEFAULTS.recency.boost),
      windowDays: v.optional(
        v.pipe(v.number(), v.finite('must be a finite number'), v.gtValue(0, 'must be greater than 0')),
        DEFAULTS.recency.windowDays,
      ),
    }),
    {},
  ),
  maxTerms: v.optional(positiveInt('maxTerms'), DEFAULTS.maxTerms),
  snippetTokens: v.optional(
    v.pipe(
      positiveInt('snippetTokens'),
      v.maxValue(MAX_SNIPPET_TOKENS, `snippetTokens must be at most ${MAX_SNIPPET_TOKENS} (the FTS5 limit)`),
    ),
    DEFAULTS.snippetTokens,
  ),
  sqlitePath: v.optional(nonEmptyString, DEFAULTS.sqlitePath),
  widen: v.optional(v.boolean('must be true or false'), DEFAULTS.widen),
  ranking: v.optional(v.picklist(['fields', 'fts5'], 'must be "fields" or "fts5"'), DEFAULTS.ranking),
  origin: v.optional(
    v.pipe(
      v.string('must be a string'),
      // '' (the default, which valibot runs through this pipe too) means: follow each request.
      v.check((origin) => origin === '' || isHttpOrigin(origin), 'must be an absolute http(s) URL such as "https://docs.example.com"'),
      v.transform((origin) => origin && new URL(origin).origin),
    ),
    DEFAULTS.origin,
  ),
});

function isHttpOrigin(value: string): boolean {
  try {
    const { protocol, username, password } = new URL(value);
    return (protocol === 'https:' || protocol === 'http:') && !username && !password;
  } catch {
    return false;
  }
}

/** One content source: which files to index and the URL pattern they map to. */
export interface SearchSource {
  /** Directory scanned recursively for `.md` and `.mdx` files. Give `dir` or `files`, not both. */
  dir?: string;
  /** Explicit list of files, instead of `dir`. */
  files?: string[];
  /** Stored with every document from this source; the set of types is the endpoint's `type` allowlist. */
  type: string;
  /** URL pattern; `:slug` is replaced per document (e.g. `/blog/:slug`). */
  url: string;
  /** Directory names skipped at any depth. Default `['Templates']`. */
  skipDirs?: string[];
  /** Emoji for documents of this source whose frontmatter has none. Default `''`. */
  emoji?: string;
  /**
   * Whether this source's dates boost its pages (the `recency` option). `false` for reference docs whose few dated
   * pages should not outrank the rest: they rank as undated, and still return their `date`. Applies to the source's
   * `type` at search time, so sources sharing a type must agree. Default `true`.
   */
  recency?: boolean;
}

/** Column weights for bm25: a higher weight makes a match in that column count for more. */
export interface SearchWeights {
  title: number;
  description: number;
  content: number;
  tags: number;
}

/** Recency multiplier: `1 + boost` today, falling linearly to 1 at `windowDays` days old. */
export interface RecencyOptions {
  boost: number;
  windowDays: number;
}

/** The options object shared by the integration, the indexer, the CLI and `resolveConfig`. See docs/configuration.md. */
export interface SearchOptions {
  /** Database name as created by the database tooling (`wrangler d1 create <database>`). Required. */
  database: string;
  /** Binding name of the database in the runtime environment. Default `'SEARCH_DB'`. */
  binding?: string;
  /** Stored in every row; when set, pushes replace and searches see only this site's rows. Default `''`. */
  site?: string;
  /** Which files to index and how they map to URLs. Required, at least one. */
  sources: SearchSource[];
  /** Characters of body text kept per document. Default 8000. */
  maxContentLength?: number;
  /** Route of the endpoint, or `false` for none. Default `'/api/search'`. */
  apiRoute?: string | false;
  /** Send `Access-Control-Allow-Origin: *`. Default true. */
  cors?: boolean;
  /** Seconds in `Cache-Control: public, max-age=<n>` and in the edge cache; 0 turns caching off. Default 300. */
  cacheMaxAge?: number;
  /** Hard cap on `limit` (larger values are clamped). Default 25. */
  maxLimit?: number;
  /** Hard cap on `offset` (larger values are a 400). Default 200. */
  maxOffset?: number;
  /** Longest accepted query, in characters (longer is a 400). Default 100. */
  maxQueryLength?: number;
  /** Per-column bm25 weights, merged with `{title: 10, description: 5, content: 1, tags: 3}`. */
  weights?: Partial<SearchWeights>;
  /** Recency multiplier, merged with `{boost: 0.35, windowDays: 1095}`; `boost: 0` disables it. */
  recency?: Partial<RecencyOptions>;
  /** Terms taken from a query; the rest are dropped. Default 8. */
  maxTerms?: number;
  /** Approximate token count of snippets (1–64). Default 24. */
  snippetTokens?: number;
  /** Local SQLite file used by the indexer, `site-search dev` and Node adapters. Default `.site-search/search.db`. */
  sqlitePath?: string;
  /**
   * When the literal query (every term) finds fewer than `limit` results, widen to any of the terms, then to
   * misspelled words corrected. `false` keeps the literal query only (every term). Default true.
   */
  widen?: boolean;
  /**
   * How bm25 is computed. `'fields'` (default): FTS5's bm25 over the whole row plus the bm25 of the title alone, so a
   * page whose title is the query is not outranked by a long page repeating its words; `weights.title` scales both.
   * `'fts5'`: FTS5's bm25 over the row only, the formula of docs/http-api.md as written. See docs/ranking.md.
   */
  ranking?: 'fields' | 'fts5';
  /**
   * The public origin result URLs are resolved against (`https://docs.example.com`), for a server that cannot know the
   * origin the browser used (behind a proxy the framework does not trust). Default: the origin of the URL the
   * framework reports for the request (`Astro.url`, SvelteKit's `event.url`, Next's `request.nextUrl`). See
   * docs/security.md.
   */
  origin?: string;
}

/** A source after validation: defaults filled in. */
export interface ResolvedSource {
  dir?: string;
  files?: string[];
  type: string;
  url: string;
  skipDirs: string[];
  emoji: string;
  /** `false`: this source's pages rank as undated. */
  recency: boolean;
}

/** Options with every default filled in, plus the derived `types` allowlist. Returned by `resolveConfig`. */
export interface ResolvedConfig {
  readonly database: string;
  readonly binding: string;
  readonly site: string;
  readonly sources: readonly ResolvedSource[];
  readonly maxContentLength: number;
  readonly apiRoute: string | false;
  readonly cors: boolean;
  readonly cacheMaxAge: number;
  readonly maxLimit: number;
  readonly maxOffset: number;
  readonly maxQueryLength: number;
  readonly weights: Readonly<SearchWeights>;
  readonly recency: Readonly<RecencyOptions>;
  readonly maxTerms: number;
  readonly snippetTokens: number;
  readonly sqlitePath: string;
  readonly widen: boolean;
  readonly ranking: 'fields' | 'fts5';
  /** The `origin` option reduced to its origin, or `''` to follow each request. */
  readonly origin: string;
  /** The distinct source types, in the order sources declare them: the endpoint's `type` allowlist. */
  readonly types: readonly string[];
}

/**
 * Identity function that gives `search.config.ts` full typing and editor completion. The parameter is `SearchOptions`
 * itself, not a generic bound by it, so TypeScript's excess-property check applies to the literal: a misspelt option
 * (`maxLimt`) is a type error in the editor, not only at run time.
 *
 * @example
 * export default defineSearchOptions({ database: 'my-site-search', sources: [{ dir: 'src/content/blog', type: 'post', url: '/blog/:slug' }] });
 */
export function defineSearchOptions(options: SearchOptions): SearchOptions {
  return options;
}
