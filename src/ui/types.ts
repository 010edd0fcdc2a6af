/**
 * The JSON the search endpoint answers (docs/http-api.md), as the browser sees it. Declared here rather than imported
 * from the server modules so the element stays a pure client of the documented HTTP contract.
 */

/** The page's best-matching headed section. */
export interface SearchResultSection {
  heading: string;
  url: string;
}

/** One result item. Every string field is plain text except `snippet`, whose only markup is `<mark>…</mark>`. */
export interface SearchResult {
  title: string;
  url: string;
  type: string;
  date: string;
  tags: string;
  emoji: string;
  snippet: string;
  score: number;
  match?: string;
  section?: SearchResultSection;
  /** The page's matching sections, best first (the first is `section`), each with a snippet as safe as `snippet`. */
  sections?: (SearchResultSection & { snippet: string })[];
}

/** One value of a facet and how many of the query's matches have it. */
export interface FacetCount {
  value: string;
  count: number;
}

/**
 * A `200` answer. `suggestion` is present when misspelled words were corrected to find the results; `facets` when the
 * request asked for them (`facets=type,tags`).
 */
export interface SearchResponse {
  query: string;
  results: SearchResult[];
  suggestion?: string;
  facets?: { type?: FacetCount[]; tags?: FacetCount[] };
}

/** `detail` of the cancelable `site-search:select` event. `url` is `''` when the result has no safe link. */
export interface SiteSearchSelectDetail {
  result: SearchResult;
  url: string;
}
