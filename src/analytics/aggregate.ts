import type { ClickEvent, MatchKind, SearchEvent } from './events.js';

/** The query counted for searches of a day's new queries past the cap (no real query is empty: the endpoint answers none). */
export const OTHER_QUERY = '';

/** One query's counts for a day, as a flush writes them (added to what is stored). */
export interface SearchRow {
  day: string;
  site: string;
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
 * Distinct queries are capped per day and site (the first `cap` seen here; later new ones count as {@link OTHER_QUERY}),
 * so memory stays bounded under a flood of random queries, as storage does (the store applies the same cap).
 */
export class Aggregator {
  #searches = new Map<string, SearchRow>();
  #clicks = new Map<string, ClickRow>();
  /** The distinct queries seen per day and site: today's only. */
  #seen = new Map<string, Set<string>>();
  #day = '';

  constructor(private readonly cap: number) {}

  /** Distinct rows waiting for the next flush. */
  get size(): number {
    return this.#searches.size + this.#clicks.size;
  }

  addSearch(e: SearchEvent): void {
    const query = this.#admit(e.day, e.site, e.query);
    const key = `${e.day}\0${e.site}\0${e.type}\0${query}`;
    const row = this.#searches.get(key) ?? { day: e.day, site: e.site, type: e.type, query, searches: 0, zero: 0, results: 0, match: e.match, suggestion: '' };
    row.searches++;
    if (e.results === 0) row.zero++;
    if (query !== OTHER_QUERY) Object.assign(row, { results: e.results, match: e.match, suggestion: e.suggestion });
    this.#searches.set(key, row);
  }

  /**
   * Pending clicks are bounded by the cap too (the search they follow may have been counted by another process; the
   * store keeps a click only for a query it holds for that day).
   */
  addClick(e: ClickEvent): void {
    const key = `${e.day}\0${e.site}\0${e.query}\0${e.url}\0${e.rank}`;
    const row = this.#clicks.get(key);
    if (row) row.clicks++;
    else if (this.#clicks.size < this.cap) this.#clicks.set(key, { ...e, clicks: 1 });
  }

  /** Hands over what is pending and starts afresh. */
  take(): AnalyticsBatch {
    const batch = { searches: [...this.#searches.values()], clicks: [...this.#clicks.values()] };
    this.#searches = new Map();
    this.#clicks = new Map();
    return batch;
  }

  #admit(day: string, site: string, query: string): string {
    if (day !== this.#day) {
      this.#seen.clear();
      this.#day = day;
    }
    const key = `${day}\0${site}`;
    let seen = this.#seen.get(key);
    if (!seen) this.#seen.set(key, (seen = new Set()));
    if (seen.has(query)) return query;
    if (seen.size >= this.cap) return OTHER_QUERY;
    seen.add(query);
    return query;
  }
}
