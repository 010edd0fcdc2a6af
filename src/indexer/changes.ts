import { createHash } from 'node:crypto';
import { SCHEMA_VERSION } from '../db/schema.js';
import { columnValue, PAGE_COLUMNS, storedRows } from '../db/write-plan.js';
import type { IndexDocument } from './document.js';
import type { VocabularyWord } from './vocabulary.js';

/**
 * A page's content hash: every byte of every field that reaches the index, and the schema version. The page row's
 * values are taken column by column as the push writes them ({@link PAGE_COLUMNS}), so a column added later cannot be
 * left out: the text kept past the cut (`more`) once was, and an edit near the end of a long page left its hash, and
 * so its stale row, as they were until `--full`. Sections are hashed as the push stores them (each holds at most
 * what is stored of it), and so are the Markdown as written and its outline. Options that change indexing (`maxContentLength`, a source's `url`, `type` or `emoji`)
 * change these fields, so they change the hash too.
 */
export function pageHash(d: IndexDocument): string {
  const fields = [SCHEMA_VERSION, ...PAGE_COLUMNS.map((column) => columnValue(d, column))];
  const sections = d.sections.map((s) => [s.heading, s.anchor, s.content]);
  // The Markdown as written is the page for assistants: an edit to a code block changes the hash like any other.
  return createHash('sha256').update(JSON.stringify([fields, sections, d.markdown ?? null, d.outline ?? null])).digest('base64url').slice(0, 22);
}

/**
 * What a D1 push found in its target for its site, read whole by wrangler (the push holds its documents too, to write
 * one SQL file): each page's hash, and each vocabulary word's row id. The SQLite push reads as it goes (stored-pages.ts).
 */
export interface TargetState {
  /**
   * Each page's hash, by {@link pageKey}: null for a page written before hashes were stored, and for a page the target
   * holds more than once (two D1 pushes that ran at once, before pushes removed by URL), which is then rewritten,
   * clearing every copy.
   */
  pages: Map<string, string | null>;
  /** How many rows each page holds (its row, side rows, sections, Markdown), by {@link pageKey}: a D1 push counts the rows it will delete. */
  rows: Map<string, number>;
  /** By {@link wordKey}. */
  words: Map<string, number>;
  /** Row ids of words the target holds more than once (all but one of each), which the push removes. */
  extraWords: number[];
}

/** Rows of the {@link targetStateQueries} read back into a {@link TargetState}. */
export function targetState(pageRows: Record<string, unknown>[], wordRows: Record<string, unknown>[]): TargetState {
  const state: TargetState = { pages: new Map(), rows: new Map(), words: new Map(), extraWords: [] };
  for (const r of pageRows) {
    const key = pageKey(String(r.site), String(r.url));
    const twice = state.pages.has(key);
    state.pages.set(key, r.hash == null || twice ? null : String(r.hash));
    state.rows.set(key, storedRows(Number(r.sections ?? 0), Number(r.markdown ?? 0)));
  }
  for (const r of wordRows) {
    const key = wordKey(String(r.site), { type: String(r.type), term: String(r.term) });
    const kept = state.words.get(key);
    if (kept !== undefined) state.extraWords.push(kept);
    state.words.set(key, Number(r.id));
  }
  return state;
}

/** How many pages a state holds, and how many with a hash (what {@link wholeRewriteReason} judges). */
export function heldOf(state: TargetState): { pages: number; hashed: number } {
  let hashed = 0;
  for (const hash of state.pages.values()) if (hash !== null) hashed++;
  return { pages: state.pages.size, hashed };
}

/** Pages are keyed by site and URL (a push with an empty `site` owns every site's rows: docs/indexing.md, "site"). */
export const pageKey = (site: string, url: string) => `${site}\u0000${url}`;
export const wordKey = (site: string, w: VocabularyWord) => `${site}\u0000${w.type}\u0000${w.term}`;

/** What a push did (or, with `dryRun`, would do). */
export interface PushCounts {
  /** Pages the push was given. */
  pages: number;
  added: number;
  changed: number;
  removed: number;
  unchanged: number;
  /** Rows inserted and deleted in the index's tables (pages, their side rows, sections, vocabulary words). */
  rowsWritten: number;
  /** True when the site was rewritten whole (`--full`, a first push, an index of another schema version). */
  full: boolean;
  /** Why it was rewritten whole, when that was not asked for. */
  reason?: string;
}

/** Why a push cannot compare with what the target holds (its pages, and how many have a hash), or undefined when it can. */
export function wholeRewriteReason(held: { pages: number; hashed: number } | undefined, storedVersion: string | undefined): string | undefined {
  if (storedVersion !== undefined && storedVersion !== String(SCHEMA_VERSION)) {
    return `the index was written with schema version ${storedVersion}, this site-search writes version ${SCHEMA_VERSION}: its tables were rebuilt, and any other site sharing the database must push again`;
  }
  if (!held || held.pages === 0 || held.hashed > 0) return undefined;
  return 'the index holds no page hashes yet (written by an older site-search): rewritten in full once';
}

/** A push rewrites the site whole when there is nothing to compare with; these counts say so. */
export function fullCounts(pages: number, rowsWritten: number, reason?: string): PushCounts {
  return { pages, added: pages, changed: 0, removed: 0, unchanged: 0, rowsWritten, full: true, reason };
}

/**
 * After an incremental push, FTS5's b-trees are merged again only when a good share of the pages changed: `optimize`
 * rewrites the whole index (every row of it billed as written on D1), which a one-page edit must not cost.
 */
export function worthOptimizing(counts: PushCounts): boolean {
  return counts.full || (counts.added + counts.changed + counts.removed) * 10 > Math.max(counts.pages, 1);
}

/**
 * Where a page stands against the target: `unchanged` (same hash: its rows stay as they are), `changed` (its old rows
 * go, found by URL) or `added`.
 */
export function classify(state: TargetState | undefined, d: IndexDocument, hash: string): 'unchanged' | 'added' | 'changed' {
  const old = state?.pages.get(pageKey(d.site, d.url));
  if (old === undefined) return 'added';
  return old === hash ? 'unchanged' : 'changed';
}

/** The target's pages that the push was not given (not in `seen`): they go. */
export function removedPages(state: TargetState | undefined, seen = new Set<string>()): { site: string; url: string; rows: number }[] {
  if (!state) return [];
  return [...state.pages.keys()].flatMap((key) => {
    if (seen.has(key)) return [];
    const [site, url] = key.split('\u0000') as [string, string];
    return [{ site, url, rows: state.rows.get(key) ?? storedRows(0, 0) }];
  });
}

/** The rows the target holds for the site (each page's rows, sections and Markdown, the vocabulary): what a rewrite deletes. */
export function rowsHeld(state: TargetState): number {
  return removedPages(state).reduce((n, page) => n + page.rows, 0) + state.words.size;
}

/** The vocabulary words to insert (new to the site) and the row ids to delete (no page uses them any more). */
export function wordChanges(site: string, words: VocabularyWord[], state: TargetState | undefined): { insert: VocabularyWord[]; remove: number[] } {
  if (!state) return { insert: words, remove: [] };
  const wanted = new Set<string>();
  const insert = words.filter((w) => {
    const key = wordKey(site, w);
    wanted.add(key);
    return !state.words.has(key);
  });
  const remove = [...state.words].filter(([key]) => !wanted.has(key)).map(([, id]) => id);
  return { insert, remove: [...remove, ...state.extraWords] };
}
