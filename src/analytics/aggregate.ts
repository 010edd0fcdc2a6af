import type { ClickEvent, MatchKind, SearchEvent, SearchSource } from './events.js';

/**
 * The query counted for searches whose text is not kept: a day's new queries past the cap, and queries evicted from it
 * (no real query is empty: the endpoint answers none).
 */
export const OTHER_QUERY = '';

/** One query's counts for a day, as a flush writes them (added to what is stored). */
export interface SearchRow {
  day: string;
  site: string;
  source: SearchSource;
  type: string;
  query: string;
  searches: number;
  /** Searches that found nothing. */
  zero: number;
  /** Results of the latest answer. */
  results: number;
  match: MatchKind;
  suggestion: string;
}

/** One result's opens for a query and day, at one rank. */
export interface ClickRow {
  day: string;
  site: string;
  query: string;
  url: string;
  rank: number;
  clicks: number;
}

/** What one flush writes. */
export interface AnalyticsBatch {
  searches: SearchRow[];
  clicks: ClickRow[];
}

/**
 * Counts searches and clicks in memory until they are flushed, one row per query and day however often it is asked.
 * Which queries a day keeps is the store's decision (it sees every process's counts); here the pending rows are bounded
 * by `maxRows` (the recorder flushes well before), past which a new query's search counts as {@link OTHER_QUERY} and a
 * new click row is dropped, so memory stays bounded under a flood of random queries whatever the store does.
 */
export class Aggregator {
  #searches = new Map<string, SearchRow>();
  #clicks = new Map<string, ClickRow>();

  constructor(private readonly maxRows: number) {}

  /** Distinct rows waiting for the next flush. */
  get size(): number {
    return this.#searches.size + this.#clicks.size;
  }

  addSearch(e: SearchEvent): void {
    const keyOf = (query: string) => `${e.day}\0${e.site}\0${e.source}\0${e.type}\0${query}`;
    let key = keyOf(e.query);
    let query = e.query;
    if (!this.#searches.has(key) && this.size >= this.maxRows) key = keyOf((query = OTHER_QUERY));
    const row = this.#searches.get(key) ?? { day: e.day, site: e.site, source: e.source, type: e.type, query, searches: 0, zero: 0, results: 0, match: e.match, suggestion: '' };
    row.searches++;
    if (e.results === 0) row.zero++;
    if (query !== OTHER_QUERY) Object.assign(row, { results: e.results, match: e.match, suggestion: e.suggestion });
    this.#searches.set(key, row);
  }

  /** The store keeps a click only for a query it holds for that day, at most one per search of it. */
  addClick(e: ClickEvent): void {
    const key = `${e.day}\0${e.site}\0${e.query}\0${e.url}\0${e.rank}`;
    const row = this.#clicks.get(key);
    if (row) row.clicks++;
    else if (this.size < this.maxRows) this.#clicks.set(key, { ...e, clicks: 1 });
  }

  /** Hands over what is pending and starts afresh. */
  take(): AnalyticsBatch {
    const batch = { searches: [...this.#searches.values()], clicks: [...this.#clicks.values()] };
    this.#searches = new Map();
    this.#clicks = new Map();
    return batch;
  }
}
