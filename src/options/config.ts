import * as v from 'valibot';
import { editDistance } from '../text/edit-distance.js';
import { SiteSearchConfigError } from '../errors.js';
import { AnalyticsSchema, MCP_DEFAULTS, McpSchema, OptionsSchema, RecencySchema, SOURCE_KEYS, WeightsSchema, type ResolvedConfig, type SearchOptions } from './options.js';

const resolved = new WeakSet<object>();

/**
 * Validates options and fills in every default. Throws a {@link SiteSearchConfigError} that lists every problem
 * with its path (`sources[1].url: must contain ":slug"`). Passing an already resolved config returns it unchanged.
 */
export function resolveConfig(options: SearchOptions | ResolvedConfig): ResolvedConfig {
  if (options !== null && typeof options === 'object' && resolved.has(options)) return options as ResolvedConfig;
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new SiteSearchConfigError(['options: must be an object such as { database, sources }']);
  }
  const result = v.safeParse(OptionsSchema, options, { abortEarly: false });
  const problems = [...(result.issues ?? []).map(describeIssue), ...unknownKeys(options)];
  if (!result.success || problems.length > 0) throw new SiteSearchConfigError(problems);

  const o = result.output;
  const config: ResolvedConfig = deepFreeze({
    ...o,
    sources: o.sources.map((s) => ({ ...s })),
    weights: { ...o.weights },
    recency: { ...o.recency },
    analytics: o.analytics && { ...o.analytics },
    mcp: o.mcp === true ? { ...MCP_DEFAULTS } : o.mcp && { ...o.mcp },
    types: [...new Set(o.sources.map((s) => s.type))],
  });
  resolved.add(config);
  return config;
}

/** What a missing required option looks like, for the first problem a new config file meets. */
const REQUIRED_EXAMPLES: Record<string, string> = {
  database: ", e.g. database: 'my-site-search' (the D1 database name; any name for a Node site)",
  sources: ", e.g. sources: [{ dir: 'src/content/blog', type: 'post', url: '/blog/:slug/' }]",
};

function describeIssue(issue: v.BaseIssue<unknown>): string {
  const keys = (issue.path ?? []).map((item) => item.key as string | number);
  const path = formatPath(keys) || 'options';
  if (issue.input === undefined && issue.kind === 'schema') return `${path}: is required${REQUIRED_EXAMPLES[path] ?? ''}`;
  const message = issue.message.startsWith('Invalid type') ? `must be ${describeExpected(issue.expected)}` : issue.message;
  // Messages that already name the field ("maxLimit must be ...") read better without repeating it.
  const field = keys[keys.length - 1];
  const text = typeof field === 'string' && message.startsWith(`${field} `) ? message.slice(field.length + 1) : message;
  return `${path}: ${text}`;
}

function describeExpected(expected: string | null): string {
  if (!expected) return 'valid';
  return expected === 'Array' ? 'an array' : expected === 'Object' ? 'an object' : `a ${expected}`;
}

function formatPath(keys: (string | number)[]): string {
  return keys.map((k, i) => (typeof k === 'number' ? `[${k}]` : i === 0 ? k : `.${k}`)).join('');
}

/**
 * valibot's strictObject stops at the first unknown key; a user with two typos should hear of both, so unknown keys
 * are found here, at every level of the options object.
 */
function unknownKeys(options: object): string[] {
  const problems: string[] = [];
  const check = (value: unknown, known: readonly string[], path: (string | number)[]) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
    for (const key of Object.keys(value)) {
      if (known.includes(key)) continue;
      const guess = closest(key, known);
      problems.push(`${formatPath([...path, key])}: unknown option${guess ? ` (did you mean "${guess}"?)` : ''}`);
    }
  };
  const o = options as Record<string, unknown>;
  // `types` is derived; tolerating it lets users spread a resolved config: resolveConfig({ ...config, cors: false }).
  check(o, [...Object.keys(OptionsSchema.entries), 'types'], []);
  if (Array.isArray(o.sources)) o.sources.forEach((s, i) => check(s, SOURCE_KEYS, ['sources', i]));
  for (const [key, schema] of [['weights', WeightsSchema], ['recency', RecencySchema], ['analytics', AnalyticsSchema], ['mcp', McpSchema]] as const) {
    if (Array.isArray(o[key])) problems.push(`${key}: must be an object`);
    check(o[key], Object.keys(schema.entries), [key]);
  }
  return problems;
}

/** The known key within edit distance 2 (or a case-insensitive match), for "did you mean". */
function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of candidates) {
    const d = candidate.toLowerCase() === word.toLowerCase() ? 0 : editDistance(word, candidate);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
