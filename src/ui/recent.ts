/**
 * Recent searches, kept in `localStorage` under one key per origin, newest first, at most `limit`. Storage can be
 * missing, full or refused (private windows, a blocked site): then nothing is remembered, and nothing fails.
 */
const KEY = 'site-search:recent';
/**
 * The longest search shown: the endpoint's default `maxQueryLength` (the box cannot know a server's own). Storage is
 * the page's to write, so an entry can be anything: a planted 2 MB one took 0.8 s to show.
 */
const MAX_QUERY = 100;
/** The most entries read, above any `recent` count a list shows. */
const MAX_KEPT = 50;

/** The stored searches, newest first, each cut to {@link MAX_QUERY}; `[]` when there are none or storage cannot be read. */
export function readRecent(): string[] {
  try {
    const list: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(list) ? list.slice(0, MAX_KEPT).filter((q): q is string => typeof q === 'string').map((q) => [...q.slice(0, 2 * MAX_QUERY)].slice(0, MAX_QUERY).join('')) : [];
  } catch {
    return [];
  }
}

function writeRecent(list: string[]): void {
  try {
    if (list.length) localStorage.setItem(KEY, JSON.stringify(list));
    else localStorage.removeItem(KEY);
  } catch {
    // Refused storage only means no memory of searches.
  }
}

/** Puts `query` first (once, whatever its case), keeping at most `limit`. */
export function rememberSearch(query: string, limit: number): void {
  const same = query.toLowerCase();
  writeRecent([query, ...readRecent().filter((q) => q.toLowerCase() !== same)].slice(0, limit));
}

export function forgetSearch(query: string): void {
  writeRecent(readRecent().filter((q) => q !== query));
}
