/**
 * What this process or isolate knows of the indexes it searched, by vocabulary generation: whether each was written by
 * this schema, and its vocabulary, built once from the packed rows. A generation is random per push and database, so it
 * names the database and its state both: a push gives a new one, and the search that first reads it judges by the new
 * vocabulary, whatever object the database binding is from one request to the next (a Worker's `env` may be new each
 * time).
 */
import type { InspectedIndex } from '../db/index-state.js';
import type { SearchDatabase } from '../db/types.js';
import { SiteVocabulary } from './site-vocabulary.js';

/** An index as a search knows it before its statement. */
export interface KnownIndex {
  generation: string;
  /** Written by this schema version: the rankings apply; else the plain statement answers until the next push. */
  current: boolean;
  vocabulary: SiteVocabulary;
}

/** Two, for a process serving two databases, or a push while searches of the old generation are still answering. */
const KEPT_GENERATIONS = 2;
const byGeneration = new Map<string, KnownIndex>();
/** The generation each database object last read: a process serving several databases keeps each one's. */
let byDatabase = new WeakMap<object, string>();
/** The generation read last: a D1 session is a new object each request, and falls back to it. */
let latest: string | undefined;

/**
 * The index `db` most likely is, as known from an earlier search (undefined when none): its statement reads the
 * generation again, and the search starts over when the two differ. An index without a generation, or of another
 * schema version, is never kept.
 */
export function knownIndex(db: SearchDatabase): KnownIndex | undefined {
  const generation = byDatabase.get(db) ?? latest;
  return generation === undefined ? undefined : byGeneration.get(generation);
}

/** The index the last search read, when kept: for checks of what a process holds. */
export function latestKnownIndex(): KnownIndex | undefined {
  return latest === undefined ? undefined : byGeneration.get(latest);
}

/** Keeps what `inspect` read of `db` (its vocabulary built here), and returns it. */
export function rememberIndex(db: SearchDatabase, inspected: InspectedIndex): KnownIndex {
  const known: KnownIndex = { generation: inspected.generation, current: inspected.current, vocabulary: new SiteVocabulary(inspected.vocabulary ?? []) };
  // An index of another version is read again at each search: its next push may come at any time.
  if (!inspected.generation || !inspected.current) return known;
  byGeneration.delete(known.generation);
  byGeneration.set(known.generation, known);
  while (byGeneration.size > KEPT_GENERATIONS) byGeneration.delete(byGeneration.keys().next().value!);
  byDatabase.set(db, known.generation);
  latest = known.generation;
  return known;
}

/** Forgets everything kept: for a process that is done with its databases, and for tests. */
export function forgetKnownIndexes(): void {
  byGeneration.clear();
  byDatabase = new WeakMap();
  latest = undefined;
}
