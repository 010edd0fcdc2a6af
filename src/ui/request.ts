import type { SearchResponse } from './types.js';

/** What one request asks the endpoint for. `limit` is passed as written so the server's own validation message shows. */
export interface SearchParams {
  q: string;
  limit: string;
  offset: number;
  type: string;
  /** The tags every result must carry. */
  tags: string[];
  /** The facets to count (`type,tags`), or `''`. */
  facets: string;
}

/** Builds the request URL on `endpoint`, which may be relative to the page or on another origin (CORS is on by default). */
export function searchUrl(endpoint: string, { q, limit, offset, type, tags, facets }: SearchParams): string {
  const url = new URL(endpoint, document.baseURI);
  url.searchParams.set('q', q);
  url.searchParams.set('limit', limit);
  if (offset) url.searchParams.set('offset', String(offset));
  if (type) url.searchParams.set('type', type);
  for (const tag of tags) url.searchParams.append('tags', tag);
  if (facets) url.searchParams.set('facets', facets);
  return url.href;
}

/**
 * A failed search. `message` is the operator's detail (the server's `error`, or what went wrong on the way), for the
 * console; `tooLong` marks the one failure a reader causes and can fix (`q` over the server's `maxQueryLength`).
 */
export class SearchError extends Error {
  constructor(
    message: string,
    readonly tooLong = false,
  ) {
    super(message);
  }
}

/**
 * Fetches one page of results. A non-2xx answer or an unexpected body throws a {@link SearchError} carrying the
 * server's `error` message when there is one ("Invalid type. One of: doc, post"), for the operator.
 */
export async function fetchResults(url: string, signal: AbortSignal): Promise<SearchResponse & { countsClicks: boolean }> {
  const response = await fetch(url, { signal }).catch((error: unknown) => {
    // An abort is not a failure to report; the caller drops it.
    throw signal.aborted ? error : new SearchError(`Search is unavailable: the endpoint ${new URL(url).pathname} could not be reached (a network error, or a cross-origin request the endpoint does not allow).`);
  });
  const body = (await response.json().catch(() => null)) as Partial<SearchResponse> & { error?: unknown } | null;
  if (!response.ok || !Array.isArray(body?.results)) {
    // A 404 page with no JSON error is nearly always a route that is not where the box asks (a setup mistake).
    const status = response.status === 404 ? `: no search endpoint at ${new URL(url).pathname} (HTTP 404)` : ` (HTTP ${response.status})`;
    const error = typeof body?.error === 'string' ? body.error : `Search failed${status}`;
    throw new SearchError(error, response.status === 400 && error.startsWith('Query too long'));
  }
  // An endpoint with analytics on says so: only then does the box report the result opened (docs/analytics.md).
  return { ...(body as SearchResponse), countsClicks: response.headers.get('X-Search-Analytics') === 'on' };
}

/** Reports the result opened to the endpoint (docs/analytics.md, "Clicks"): a beacon, which outlives the navigation. */
export function reportClick(endpoint: string, q: string, url: string, rank: number): void {
  try {
    navigator.sendBeacon?.(new URL(endpoint, document.baseURI).href, JSON.stringify({ q, url: new URL(url, document.baseURI).href, rank }));
  } catch {
    // Counting a click is never worth failing the navigation it precedes.
  }
}
