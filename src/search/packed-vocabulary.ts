import { PACKED_VOCAB_QUERY, VOCAB_GENERATION_QUERY } from '../db/schema.js';
import type { SearchDatabase } from '../db/types.js';
import { TypoIndex, type VocabularyEntry } from './typo-index.js';

/** A row of `search_vocab_packed` (src/db/schema.ts has its format). */
export interface PackedVocabularyRow {
  site: string;
  type: string;
  part: number;
  words: string;
}

/** The vocabulary rows packed in `rows` (every part of a site and type read together: ids continue across parts). */
export function unpackVocabulary(rows: PackedVocabularyRow[]): VocabularyEntry[] {
  const entries: VocabularyEntry[] = [];
  const sorted = [...rows].sort((a, b) => compare(a.site, b.site) || compare(a.type, b.type) || Number(a.part) - Number(b.part));
  let scope = '';
  let id = 0;
  for (const { site, type, words } of sorted) {
    if (`${site}\u0000${type}` !== scope) (scope = `${site}\u0000${type}`), (id = 0);
    for (const line of words.split('\n')) {
      const space = line.indexOf(' ');
      id += Number(line.slice(0, space));
      entries.push({ id, site, type, term: line.slice(space + 1) });
    }
  }
  return entries;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The vocabulary's generation (see `VOCAB_GENERATION_KEY`), or undefined for an index without a packed vocabulary (one
 * pushed before schema version 10, or a table written by another tool, which has no `search_meta`): the caller then
 * looks words up in SQL as before.
 */
export async function vocabularyGeneration(db: SearchDatabase): Promise<string | undefined> {
  try {
    const { results } = await db.prepare(VOCAB_GENERATION_QUERY).all<{ value: string }>();
    return results[0]?.value;
  } catch (e) {
    if (/no such table/i.test((e as Error).message)) return undefined;
    throw e;
  }
}

/** Reads the packed vocabulary (one row per 10,000 words of a site and type) and builds its typo index. */
export async function loadTypoIndex(db: SearchDatabase): Promise<TypoIndex> {
  const { results } = await db.prepare(PACKED_VOCAB_QUERY).all<PackedVocabularyRow>();
  return new TypoIndex(unpackVocabulary(results));
}

/**
 * Indexes kept by this process or isolate, by vocabulary generation. A generation is random per push and database, so
 * it names the database and its state both: a push gives a new one, and the next search loads the new vocabulary,
 * whatever object the database binding is from one request to the next (a Worker's `env` may be new each time). Two,
 * for a process serving two databases, or a push while searches of the old generation are still answering.
 */
const kept = new Map<string, Promise<TypoIndex>>();
const KEPT_GENERATIONS = 2;

/**
 * The typo index of `db` at `generation` (as read by `VOCAB_GENERATION_QUERY`): built once per process or isolate
 * and generation, shared by the searches that ask at once. A load that fails is forgotten, so the next search tries
 * again.
 */
export function typoIndexFor(db: SearchDatabase, generation: string): Promise<TypoIndex> {
  const known = kept.get(generation);
  if (known) {
    // Most recently used last, so the oldest is the one let go.
    kept.delete(generation);
    kept.set(generation, known);
    return known;
  }
  const loading = loadTypoIndex(db);
  kept.set(generation, loading);
  loading.catch(() => kept.get(generation) === loading && kept.delete(generation));
  while (kept.size > KEPT_GENERATIONS) kept.delete(kept.keys().next().value!);
  return loading;
}

/** The indexes of `kept` that have finished loading, by generation. */
const ready = new Map<string, TypoIndex>();

/** How many times everything was forgotten: a load asked for before then is not started. */
let forgotten = 0;

/** The generation the last search statement read: the vocabulary the next search most likely searches. */
let latest: string | undefined;

/**
 * The generation each database object's last statement read: a process serving several databases (one per site) keeps
 * each one's, where `latest` alone would send every search after a switch through a statement read for nothing.
 */
let byDatabase = new WeakMap<object, string>();

/**
 * The typo index of the vocabulary the last search statement read, when it is already in memory (never waits for a
 * load): with it a search knows its corrections before its statement. It may be another database's (a process can
 * serve several); the statement reads the generation again, and the search answers from the index only when the two
 * agree.
 */
export function latestTypoIndex(db?: SearchDatabase): { generation: string; index: TypoIndex } | undefined {
  // A D1 session is a new object each request: it falls back to the process's last generation.
  const generation = (db && byDatabase.get(db)) ?? latest;
  const index = generation === undefined ? undefined : ready.get(generation);
  return index && { generation: generation!, index };
}

/**
 * Records the generation a search statement read from `db`, and loads that vocabulary in the background when it is not
 * in memory yet: the search that read it is not kept waiting (it looked its words up in SQL), the next one finds it.
 */
export function noteGeneration(db: SearchDatabase, generation: string, background?: (work: Promise<unknown>) => void): void {
  latest = generation;
  byDatabase.set(db, generation);
  if (kept.has(generation)) return;
  const since = forgotten;
  const load = (): Promise<unknown> => {
    if (kept.has(generation) || since !== forgotten) return Promise.resolve();
    const loading = typoIndexFor(db, generation);
    return loading.then(
      (index) => {
        if (kept.get(generation) === loading) ready.set(generation, index);
        for (const key of ready.keys()) if (!kept.has(key)) ready.delete(key);
      },
      // A failed load is forgotten by typoIndexFor; the next search statement tries again.
      () => undefined,
    );
  };
  // A Worker does I/O only while a request is handled: its load is handed to ctx.waitUntil, beside the answer.
  if (background) return background(load());
  // Elsewhere after the current answer: a local database reads and builds synchronously (tens of milliseconds on a
  // large site).
  const timer: unknown = setTimeout(() => void load(), 0);
  // A command that searches once (site-search query) exits without waiting for it.
  (timer as { unref?: () => void }).unref?.();
}

/** Forgets every vocabulary kept in memory: for a process that is done with its databases (and for tests). */
export function forgetTypoIndexes(): void {
  forgotten++;
  kept.clear();
  ready.clear();
  latest = undefined;
  byDatabase = new WeakMap();
}
