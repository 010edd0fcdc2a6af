import { SearchInputError } from '../errors.js';
import { MAX_TAG_LENGTH, normalizeTag, NOT_IN_A_TAG } from '../text/tags.js';

/**
 * Tag filters and facet counts (docs/http-api.md, "Filters and facets"): the `tags` and `facets` parameters, validated
 * and normalised, and the counts a search statement returned, shaped as the endpoint answers them.
 */

/** The facets the endpoint can count. */
export const FACET_NAMES = ['type', 'tags'] as const;
export type FacetName = (typeof FACET_NAMES)[number];

/** At most this many tags in one request: each is a condition on every match. */
export const MAX_TAGS = 10;
/**
 * At most this many values per facet, the most frequent first: a site with thousands of tags answers with its top
 * ones, not all of them (a box shows a handful).
 */
export const MAX_FACET_VALUES = 20;

/** One value of a facet and how many of the query's matches have it. */
export interface FacetCount {
  value: string;
  count: number;
}

/** The counts a search returns when asked for facets, per facet asked. */
export type FacetCounts = Partial<Record<FacetName, FacetCount[]>>;

/** A raw parameter: absent, one value, or the values of a repeated parameter. */
type RawList = string | readonly string[] | null | undefined;

/** Every comma-separated item of every value, trimmed, empty ones dropped (`tags=a,,b&tags=` is `a`, `b`). */
function items(raw: RawList): string[] {
  const values = raw === null || raw === undefined ? [] : typeof raw === 'string' ? [raw] : raw;
  return values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
}

/**
 * The `tags` parameter: repeated (`tags=a&tags=b`), comma-separated (`tags=a,b`) or both. Each tag exact and
 * case-sensitive, like `type`, in the form the indexer stores it (NFC, without invisible or direction-changing
 * characters: `normalizeTag`), without duplicates, sorted, so that the order and Unicode form they are given in change
 * neither the results nor the cache entry. Throws the 400 message when there are too many, or one is too long or has
 * a space (the index keeps none that does).
 */
export function parseTags(raw: RawList): string[] {
  const tags = [...new Set(items(raw).map(normalizeTag).filter(Boolean))].sort();
  const bad = tags.length > MAX_TAGS || tags.some((t) => NOT_IN_A_TAG.test(t) || [...t].length > MAX_TAG_LENGTH);
  if (bad) throw new SearchInputError(`Invalid tags (at most ${MAX_TAGS}, each up to ${MAX_TAG_LENGTH} characters, without spaces)`);
  return tags;
}

/** The `facets` parameter (`facets=type,tags`): the names asked for, in the canonical order. Throws the 400 message. */
export function parseFacets(raw: RawList): FacetName[] {
  const asked = items(raw);
  if (asked.some((name) => !(FACET_NAMES as readonly string[]).includes(name))) {
    throw new SearchInputError(`Invalid facets. Any of: ${FACET_NAMES.join(', ')}`);
  }
  return FACET_NAMES.filter((name) => asked.includes(name));
}

/** The facets asked for, each with its counts from the statement's rows (none found: an empty list). */
export function facetCounts(asked: readonly FacetName[], found: FacetCounts = {}): FacetCounts {
  return Object.fromEntries(asked.map((name) => [name, found[name] ?? []]));
}

/**
 * The counts a ranking statement returned, `[[kind, value, count], …]` as JSON (`f`: a type, `t`: a tag), the most
 * frequent first.
 */
export function facetsOfJson(json: string): FacetCounts {
  const counts = JSON.parse(json) as [kind: string, value: string, count: number][];
  const of = (kind: string) =>
    counts
      .filter(([k]) => k === kind)
      .map(([, value, count]): FacetCount => ({ value: String(value), count: Number(count) }))
      .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
  return { type: of('f'), tags: of('t') };
}
