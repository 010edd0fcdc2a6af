/**
 * The one options schema. Each option is declared once, here: its validation, its default and its documentation. The
 * types users write (`SearchOptions`) and the resolved config every part reads (`ResolvedConfig`) are inferred from it,
 * and the Astro integration, the route adapters, the indexer and the CLI all read their options through
 * `resolveConfig`, so every part of the product agrees on defaults and on what is invalid. docs/configuration.md lists
 * every option with its rules and problem texts.
 */
import * as v from 'valibot';

/** FTS5's snippet() accepts at most 64 tokens. */
export const MAX_SNIPPET_TOKENS = 64;

/*
 * Every rule below is a `v.check` with a predicate rather than valibot's named actions (`integer`, `minValue`,
 * `regex`, `nonEmpty`…): each named action is code of its own in every Worker that validates its options, where one
 * `check` serves them all (docs/benchmarks.md, "Worker bundle"), and the problem texts are ours either way.
 */
const isWhole = (what: string) => v.check((n: number) => Number.isInteger(n), `${what} must be a whole number`);
const positiveInt = (what: string) => v.pipe(v.number(), isWhole(what), v.check((n) => n >= 1, `${what} must be at least 1`));
const nonNegativeInt = (what: string) => v.pipe(v.number(), isWhole(what), v.check((n) => n >= 0, `${what} must be 0 or more`));
const isFinite = v.check((n: number) => Number.isFinite(n), 'must be a finite number');
const nonNegative = v.pipe(v.number(), isFinite, v.check((n) => n >= 0, 'must be 0 or more'));
const filled = (message: string) => v.check((text: string) => text.length > 0, message);
const nonEmptyString = v.pipe(v.string('must be a string'), v.trim(), filled('must not be empty'));
const matches = (pattern: RegExp, message: string) => v.check((text: string) => pattern.test(text), message);
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
/** A path the server answers (`apiRoute`, `mcp.route`). */
const ROUTE = v.pipe(v.string('must be a string'), v.check((route: string) => route.startsWith('/'), 'must start with "/"'));

const SourceEntries = {
  /** Directory scanned recursively for `.md` and `.mdx` files. Give `dir` or `files`, not both. */
  dir: v.optional(nonEmptyString),
  /** Explicit list of files, instead of `dir`. */
  files: v.optional(v.pipe(v.array(nonEmptyString), v.check((files) => files.length > 0, 'must list at least one file'))),
  /** Stored with every document from this source; the set of types is the endpoint's `type` allowlist. */
  type: nonEmptyString,
  /** URL pattern; `:slug` is replaced per document (e.g. `/blog/:slug`). */
  url: v.pipe(v.string('must be a string'), filled('must not be empty')),
  /** Directory names skipped at any depth. Default `['Templates']`. */
  skipDirs: v.optional(v.array(nonEmptyString), () => ['Templates']),
  /** Emoji for documents of this source whose frontmatter has none. Default `''`. */
  emoji: v.optional(v.string('must be a string'), ''),
  /**
   * Whether this source's dates boost its pages (the `recency` option). `false` for reference docs whose few dated
   * pages should not outrank the rest: they rank as undated, and still return their `date`. Applies to the source's
   * `type` at search time, so sources sharing a type must agree. Default `true`.
   */
  recency: v.optional(v.boolean('must be true or false'), true),
  /**
   * Frontmatter rules a page must pass to be indexed: `'starlight'` applies the docs schema of the Starlight installed
   * in the project, so a page Starlight rejects (and `astro build` does not build) is skipped with a warning naming the
   * file and the field. The Starlight plugin sets it on the sources it derives. Default: none.
   */
  frontmatter: v.optional(v.picklist(['starlight'], 'must be "starlight" (the only rules site-search knows)')),
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

/** Column weights for bm25: a higher weight makes a match in that column count for more. */
export const WeightsSchema = v.object({
  /** Weight of a match in the title (and, with `ranking: 'fields'`, of the title's own score). Default 10. */
  title: v.optional(nonNegative, 10),
  /** Weight of a match in the description. Default 5. */
  description: v.optional(nonNegative, 5),
  /** Weight of a match in the body. Default 1. */
  content: v.optional(nonNegative, 1),
  /** Weight of a match in the tags. Default 3. */
  tags: v.optional(nonNegative, 3),
});

/** Recency multiplier: `1 + boost` today, falling linearly to 1 at `windowDays` days old. */
export const RecencySchema = v.object({
  /** What a page dated today gains: its score × `1 + boost`. `0` turns recency off. Default 0.35. */
  boost: v.optional(nonNegative, 0.35),
  /** Age in days at which the boost has fallen to nothing. Default 1095 (three years). */
  windowDays: v.optional(v.pipe(v.number(), isFinite, v.check((n) => n > 0, 'must be greater than 0')), 1095),
});

/** Search analytics (docs/analytics.md): what readers search for, find nothing for, and open. */
export const AnalyticsSchema = v.object({
  /** Days a day's counts are kept; older days are deleted as new ones are written. Default 90. */
  retentionDays: v.optional(positiveInt('retentionDays'), 90),
  /**
   * Distinct queries kept per day and site; searches for further new queries that day are counted under one "other"
   * row, so a flood of random queries cannot grow storage without bound. Default 1000.
   */
  dailyQueryCap: v.optional(positiveInt('dailyQueryCap'), 1000),
  /**
   * The longest a count waits in memory, in seconds: counts are written in one batch once the oldest is this old (or
   * 500 distinct rows wait), in `ctx.waitUntil` where the platform has it. Also the most an evicted isolate or an
   * exiting process loses. `0` writes after every search: for tests, never on D1 (one write per search). Default 300.
   */
  flushSeconds: v.optional(nonNegativeInt('flushSeconds'), 300),
  /**
   * The local SQLite file analytics are written to on Node (`site-search dev`, the Astro integration,
   * `openAnalytics()`): a file of its own beside the index, since the index is opened read-only and replaced by a
   * push. Default `.site-search/analytics.db`. On D1 the counts go to the search database itself.
   */
  sqlitePath: v.optional(nonEmptyString, '.site-search/analytics.db'),
  /**
   * Name of a Workers Analytics Engine binding (`analytics_engine_datasets` in the wrangler config). When set and the
   * Worker has it, each search and click is written there with `writeDataPoint` instead of to the database. Default
   * none.
   */
  engineBinding: v.optional(v.pipe(v.string('must be a string'), matches(IDENTIFIER, 'must be a JavaScript identifier such as "SEARCH_ANALYTICS"'))),
});

/** The MCP server for AI assistants (docs/mcp.md): where it answers and how its tools present the site to a model. */
export const McpSchema = v.object({
  /** Route the MCP server answers on a Worker of its own and in the integrations. Default `'/mcp'`. */
  route: v.optional(ROUTE, '/mcp'),
  /**
   * The site's name as the tools' descriptions give it to a model ("Search the Acme docs"). Default: the site's title
   * where the integration knows it (Starlight), else none (the descriptions say "this site").
   */
  name: v.optional(nonEmptyString),
  /** One sentence on what the site covers, added to the tools' descriptions so a model knows when to call them. */
  description: v.optional(nonEmptyString),
  /**
   * Longest question the `search` tool accepts, in characters (Unicode code points) after trimming. Default 500: an
   * assistant asks in whole sentences, where the endpoint's `maxQueryLength` (100) bounds what a reader types into a
   * box. A question longer than `maxTerms` words is searched for its rarest informative words (docs/ranking.md).
   */
  maxQueryLength: v.optional(positiveInt('maxQueryLength'), 500),
});

/** The MCP defaults `mcp: true` stands for. */
export const MCP_DEFAULTS = v.getDefaults(McpSchema);

/** The analytics defaults `analytics: true` stands for. */
const ANALYTICS_DEFAULTS = v.getDefaults(AnalyticsSchema);

/** The options object (docs/configuration.md), validated by `resolveConfig`. */
export const OptionsSchema = v.object({
  /** Database name as created by the database tooling (`wrangler d1 create <database>`). Required. */
  database: nonEmptyString,
  /** Binding name of the database in the runtime environment. Default `'SEARCH_DB'`. */
  binding: v.optional(
    v.pipe(
      v.string('must be a string'),
      matches(IDENTIFIER, 'must be a JavaScript identifier such as "SEARCH_DB"'),
    ),
    'SEARCH_DB',
  ),
  /** Stored in every row; when set, pushes replace and searches see only this site's rows. Default `''`. */
  site: v.optional(
    v.pipe(
      v.string('must be a string'),
      v.check((site) => site.length <= 200, 'must be at most 200 characters'),
      // Stored and compared as written in every statement: a character the SQL writer drops (controls, lone
      // surrogates) or the snippet sentinels (private use) would make a push delete another site's rows.
      v.check(
        (site) => site.isWellFormed() && !/[\p{Cc}\p{Co}]/u.test(site),
        'must be printable text (no control characters, private-use characters or lone surrogates), such as "docs"',
      ),
    ),
    '',
  ),
  /** Which files to index and how they map to URLs. Required, at least one. */
  sources: v.pipe(
    v.array(SourceSchema, 'must be an array of sources'),
    v.check((sources) => sources.length > 0, 'must list at least one source'),
    // Recency is decided per row at search time, where a row knows its type but not its source.
    v.check(
      (sources) => sources.every((a) => sources.every((b) => a.type !== b.type || a.recency === b.recency)),
      'those sharing a type must set the same "recency" (true or false), since it applies per type at search time',
    ),
  ),
  /**
   * Characters of body text kept per document; the text past it is searched too (as written up to as much again, then
   * each word not yet kept, once), never returned. Default 8000.
   */
  maxContentLength: v.optional(positiveInt('maxContentLength'), 8000),
  /** Route of the endpoint, or `false` for none. Default `'/api/search'`. */
  apiRoute: v.optional(
    v.union(
      [v.literal(false), ROUTE],
      'must be a route starting with "/", or false',
    ),
    '/api/search',
  ),
  /** Send `Access-Control-Allow-Origin: *`. Default true. */
  cors: v.optional(v.boolean('must be true or false'), true),
  /** Seconds in `Cache-Control: public, max-age=<n>` and in the edge cache; 0 turns caching off. Default 300. */
  cacheMaxAge: v.optional(nonNegativeInt('cacheMaxAge'), 300),
  /** Hard cap on `limit` (larger values are clamped). Default 25. */
  maxLimit: v.optional(positiveInt('maxLimit'), 25),
  /** Hard cap on `offset` (larger values are a 400). Default 200. */
  maxOffset: v.optional(nonNegativeInt('maxOffset'), 200),
  /** Longest accepted query, in characters (longer is a 400). Default 100. */
  maxQueryLength: v.optional(positiveInt('maxQueryLength'), 100),
  /** Per-column bm25 weights, merged with `{title: 10, description: 5, content: 1, tags: 3}`. */
  weights: v.optional(WeightsSchema, {}),
  /** Recency multiplier, merged with `{boost: 0.35, windowDays: 1095}`; `boost: 0` disables it. */
  recency: v.optional(RecencySchema, {}),
  /** Terms taken from a query; the rest are dropped. Default 8. */
  maxTerms: v.optional(positiveInt('maxTerms'), 8),
  /** Approximate token count of snippets (1–64). Default 24. */
  snippetTokens: v.optional(
    v.pipe(
      positiveInt('snippetTokens'),
      v.check((n) => n <= MAX_SNIPPET_TOKENS, `snippetTokens must be at most ${MAX_SNIPPET_TOKENS} (the FTS5 limit)`),
    ),
    24,
  ),
  /**
   * Index files reached through a symbolic link whose real path is outside their source's `dir` (for a `files`
   * source, outside the folder of the search options). Default false: such a file, or every file of such a linked
   * folder, is skipped with a warning naming it, so a link to `/etc/passwd`, `../secret/.env` or `.git/config` in a
   * contributor's pull request is never published as a searchable page. Set true when your content really lives
   * elsewhere and is linked in.
   */
  followLinksOutside: v.optional(v.boolean('must be true or false'), false),
  /** Local SQLite file used by the indexer, `site-search dev` and Node adapters. Default `.site-search/search.db`. */
  sqlitePath: v.optional(nonEmptyString, '.site-search/search.db'),
  /**
   * When the literal query (every term) finds fewer than `limit` results, widen to any of the terms, then to
   * misspelled words corrected. `false` keeps the literal query only (every term). Default true.
   */
  widen: v.optional(v.boolean('must be true or false'), true),
  /**
   * How bm25 is computed. `'fields'` (default): FTS5's bm25 over the whole row plus the bm25 of the title alone, so a
   * page whose title is the query is not outranked by a long page repeating its words; `weights.title` scales both.
   * `'fts5'`: FTS5's bm25 over the row only, the formula of docs/http-api.md as written. See docs/ranking.md.
   */
  ranking: v.optional(v.picklist(['fields', 'fts5'], 'must be "fields" or "fts5"'), 'fields'),
  /**
   * How many matching sections each result lists under its page (`sections` in the response: heading, link, snippet),
   * best first; 0 for none. Default 3, at most 10. See docs/http-api.md.
   */
  sections: v.optional(v.pipe(nonNegativeInt('sections'), v.check((n) => n <= 10, 'sections must be at most 10')), 3),
  /**
   * Words a query word also stands for, applied when searching (no re-index needed): with
   * `{ '404': ['not found'], k8s: ['kubernetes'] }`, `404 page` also finds pages that say "not found". One way: list
   * both directions for a two-way pair. Keys are single words; values are words or phrases (at most 10 per word).
   * Default none. See docs/ranking.md.
   */
  /**
   * The built-in docs vocabulary: what readers type beside what docs write (`upgrade` and "migration", `install` and
   * "set up", `env` and "environment", `7` and `v7`, irregular forms such as `overridden`), applied when searching in
   * the coverage ranking, a page holding the docs' word counting below one holding the word typed. `false` turns it
   * off; a word given in `synonyms` replaces its built-in entry. Default `true`. See docs/ranking.md.
   */
  vocabulary: v.optional(v.boolean('must be true or false'), true),
  synonyms: v.optional(
    v.pipe(
      v.record(
        v.pipe(v.string(), matches(/^[^\s"'`]{1,64}$/u, 'each key must be one word (no spaces or quotes), at most 64 characters')),
        v.pipe(
          v.array(
            v.pipe(v.string('must be a string'), v.trim(), matches(/^[^"'`\p{Cc}]{1,100}$/u, 'each synonym must be 1 to 100 characters, without quotes or control characters')),
            'must be an array of words or phrases',
          ),
          v.check((alike) => alike.length <= 10, 'at most 10 synonyms per word'),
        ),
        'must be an object such as { "404": ["not found"] }',
      ),
      v.check((all) => Object.keys(all).length <= 1000, 'at most 1,000 words'),
      // Queries are lowercased before they are matched; so are the words they are looked up by.
      v.transform((all) => Object.fromEntries(Object.entries(all).map(([word, alike]) => [word.toLowerCase(), alike.map((a) => a.toLowerCase().replace(/\s+/g, ' '))]))),
    ),
    {},
  ),
  /**
   * Search analytics, kept in the site's own database (docs/analytics.md): `true` for the defaults, or an object with
   * `retentionDays`, `dailyQueryCap`, `flushSeconds`, `sqlitePath`, `engineBinding`. Nothing about the reader is
   * recorded. Resolved: `false`, or the object with every default set. Default false.
   */
  analytics: v.optional(
    v.pipe(
      v.union([v.boolean(), AnalyticsSchema], 'must be true, false or an object such as { retentionDays: 90 }'),
      v.transform((a) => (a === false ? false : a === true ? { ...ANALYTICS_DEFAULTS } : a)),
    ),
    false,
  ),
  /**
   * The MCP server for AI assistants (docs/mcp.md): `true` for the defaults, or an object with `route`, `name`,
   * `description`. Read-only; it answers from the same index and with the same limits as the endpoint. Resolved:
   * `false`, or the object with `route` set. Default false.
   */
  // `true` becomes the defaults (MCP_DEFAULTS) in resolveConfig (a transform here would ship in every Worker).
  mcp: v.optional(v.union([v.boolean(), McpSchema], "must be true, false or an object such as { name: 'Acme docs' }"), false),
  /**
   * Write llms.txt and llms-full.txt (llmstxt.org, docs/mcp.md) from the index into the build output: the Astro
   * integration and the Starlight plugin do, after the build. Default false.
   */
  llms: v.optional(v.boolean('must be true or false'), false),
  /**
   * The public origin result URLs are resolved against (`https://docs.example.com`), for a server that cannot know the
   * origin the browser used (behind a proxy the framework does not trust). Default: the origin of the URL the
   * framework reports for the request (`Astro.url`, SvelteKit's `event.url`, Next's `request.nextUrl`); resolved, `''`.
   * See docs/security.md.
   */
  origin: v.optional(
    v.pipe(
      v.string('must be a string'),
      // '' (the default, which valibot runs through this pipe too) means: follow each request.
      v.check((origin) => origin === '' || isHttpOrigin(origin), 'must be an absolute http(s) URL such as "https://docs.example.com"'),
      v.transform((origin) => origin && new URL(origin).origin),
    ),
    '',
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

/** The default of every option that has one (from the schema). */
export const DEFAULTS = v.getDefaults(OptionsSchema);

/** One content source: which files to index and the URL pattern they map to. */
export type SearchSource = v.InferInput<typeof SourceSchema>;

/** Column weights for bm25 (resolved: every weight set). */
export type SearchWeights = v.InferOutput<typeof WeightsSchema>;

/** Analytics options (resolved: every default set except `engineBinding`). */
export type AnalyticsOptions = v.InferOutput<typeof AnalyticsSchema>;

/** MCP server options (resolved: `route` set). */
export type McpOptions = v.InferOutput<typeof McpSchema>;

/** The recency multiplier (resolved: both fields set). */
export type RecencyOptions = v.InferOutput<typeof RecencySchema>;

/** The options object shared by the integration, the indexer, the CLI and `resolveConfig`. See docs/configuration.md. */
export type SearchOptions = v.InferInput<typeof OptionsSchema>;

/** A source after validation: defaults filled in. */
export type ResolvedSource = v.InferOutput<typeof SourceSchema>;

type Resolved = v.InferOutput<typeof OptionsSchema>;

/** Options with every default filled in, plus the derived `types` allowlist. Returned by `resolveConfig`, frozen. */
export type ResolvedConfig = Readonly<Omit<Resolved, 'sources' | 'weights' | 'recency' | 'analytics' | 'mcp'>> & {
  /** Search analytics: `false` (off), or every analytics option set. */
  readonly analytics: false | Readonly<AnalyticsOptions>;
  /** The MCP server: `false` (off), or its options with `route` set. */
  readonly mcp: false | Readonly<McpOptions>;
  /** Which files to index and how they map to URLs, each with its defaults filled in. */
  readonly sources: readonly ResolvedSource[];
  /** Per-column bm25 weights, every one set. */
  readonly weights: Readonly<SearchWeights>;
  /** The recency multiplier, both fields set. */
  readonly recency: Readonly<RecencyOptions>;
  /** The distinct source types, in the order sources declare them: the endpoint's `type` allowlist. */
  readonly types: readonly string[];
};

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
