import type { SearchDatabase, SqlValue } from '../db/types.js';
import { pageKey } from './changes.js';
import { pagedStateQueries, STATE_ROWS_PER_READ, URLS_PER_LOOKUP } from './sql.js';
import type { Vocabulary } from './vocabulary.js';

/**
 * What an incremental push through a {@link SearchDatabase} compares with, read from the index as the documents come
 * rather than held whole. A push once read every stored page's URL and hash into a map before the first document, and
 * over 1,000,000 files peaked at 1.43 GB against 0.70 GB for the first push, which holds none of it (attack round 3).
 * Now each few dozen documents look their stored rows up by URL, the push keeps only the row ids it has met (8 bytes a
 * page), and the stored pages it never met (removed) are found at the end by reading the index in pages, which is
 * skipped when the counts show there are none.
 */
export class StoredPages {
  /** Row ids met, in the order met: stored rows a lookup found, and rows the push wrote. */
  private met: Float64Array;
  private size = 0;
  /**
   * A URL was given twice in one lookup (documents straight to writeIndex; the file reader and pushIndex keep the
   * first): the count that tells whether any page is gone then misleads, so the pages are read. Across lookups, the
   * second copy meets the row the first one found or wrote, which shows as a row id met twice.
   */
  private twice = false;

  private constructor(
    private readonly db: SearchDatabase,
    private readonly site: string,
    /** How many pages the index holds for the site, and how many of them have a hash. */
    readonly held: { pages: number; hashed: number },
  ) {
    this.met = new Float64Array(held.pages + 1024);
  }

  /** Counts what the index holds for `site` (every site when empty). */
  static async open(db: SearchDatabase, site: string): Promise<StoredPages> {
    const { results } = await db.prepare(pagedStateQueries.held(site)).bind(...siteParam(site)).all<{ pages: number; hashed: number }>();
    return new StoredPages(db, site, { pages: Number(results[0]?.pages ?? 0), hashed: Number(results[0]?.hashed ?? 0) });
  }

  /**
   * The stored hash of each URL of `site` the index holds: null when it holds none for it (written before hashes were
   * stored) or holds the page more than once (two D1 pushes that ran at once), which the push then rewrites.
   */
  async lookUp(site: string, urls: string[]): Promise<Map<string, string | null>> {
    const stored = new Map<string, string | null>();
    for (let i = 0; i < urls.length; i += URLS_PER_LOOKUP) {
      const some = urls.slice(i, i + URLS_PER_LOOKUP);
      if (new Set(some).size < some.length) this.twice = true;
      const { results } = await this.db.prepare(pagedStateQueries.stored(some.length)).bind(site, ...some).all<{ id: number; url: string; hash: string | null }>();
      for (const r of results) {
        this.meet(Number(r.id));
        const url = String(r.url);
        stored.set(url, stored.has(url) || r.hash == null ? null : String(r.hash));
      }
    }
    return stored;
  }

  /** A row the push wrote (the id of a page's search_index row). */
  wrote(id: number): void {
    this.meet(id);
  }

  /**
   * The stored pages no lookup found and the push did not write: the pages it was not given, which go. `given` is how
   * many documents the push had; when the index holds exactly that many pages (and no URL came twice) there are none,
   * and nothing is read. Read before any is removed, so removing them cannot shift the pages being read.
   */
  async unmet(given: number): Promise<{ site: string; url: string }[]> {
    const { results } = await this.db.prepare(pagedStateQueries.held(this.site)).bind(...siteParam(this.site)).all<{ pages: number }>();
    const met = this.met.subarray(0, this.size).sort();
    // A row id met twice: a URL came twice (or a changed page's new row took its old row's id, which costs only the read).
    for (let i = 1; i < met.length && !this.twice; i++) if (met[i] === met[i - 1]) this.twice = true;
    if (!this.twice && Number(results[0]?.pages ?? 0) === given) return [];
    const keys = new Set<string>();
    const unmet: { site: string; url: string }[] = [];
    await readInPages(this.db, pagedStateQueries.pagesAfter(this.site), this.site, (rows) => {
      for (const r of rows) {
        const key = pageKey(String(r.site), String(r.url));
        if (has(met, Number(r.id)) || keys.has(key)) continue;
        keys.add(key);
        unmet.push({ site: String(r.site), url: String(r.url) });
      }
    });
    return unmet;
  }

  private meet(id: number): void {
    if (this.size === this.met.length) {
      const grown = new Float64Array(this.met.length * 2);
      grown.set(this.met);
      this.met = grown;
    }
    this.met[this.size++] = id;
  }
}

/**
 * The vocabulary rows to delete, read from the index in pages: each stored word the site's pages still hold is taken
 * out of `vocabulary` (so that what is left there is what to insert), and every other one, a second copy of a word
 * included, goes. Nothing of the stored vocabulary is held but the ids to delete.
 */
export async function staleWords(db: SearchDatabase, site: string, vocabulary: Vocabulary): Promise<number[]> {
  const stale: number[] = [];
  await readInPages(db, pagedStateQueries.wordsAfter(site), site, (rows) => {
    for (const r of rows) {
      if (String(r.site) === site && vocabulary.take(String(r.type), String(r.term))) continue;
      stale.push(Number(r.id));
    }
  });
  return stale;
}

/** Runs a paged query ({@link pagedStateQueries}) from the first row id to the last, handing each page of rows on. */
async function readInPages(db: SearchDatabase, sql: string, site: string, take: (rows: Record<string, unknown>[]) => void): Promise<void> {
  for (let after = Number.MIN_SAFE_INTEGER; ; ) {
    const { results } = await db.prepare(sql).bind(after, ...siteParam(site)).all();
    take(results);
    if (results.length < STATE_ROWS_PER_READ) return;
    after = Number(results.at(-1)!.id);
  }
}

const siteParam = (site: string): SqlValue[] => (site ? [site] : []);

/** Whether the sorted `ids` hold `id`. */
function has(ids: Float64Array, id: number): boolean {
  let low = 0;
  let high = ids.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (ids[mid] === id) return true;
    if (ids[mid]! < id) low = mid + 1;
    else high = mid - 1;
  }
  return false;
}
