/** How a search matched, as its answer reports it: the first result's step, or `none` when nothing was found. */
export type MatchKind = 'all' | 'any' | 'typo' | 'none';

/**
 * Who asked: `endpoint` for the search endpoint (the box and any other reader of it), `mcp` for an AI assistant
 * through the MCP server's `search` tool (docs/mcp.md). Counted apart, so a site sees what assistants ask.
 */
export type SearchSource = 'endpoint' | 'mcp';

/** One answered search, as recorded: nothing about who asked beyond {@link SearchSource}. */
export interface SearchEvent {
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  site: string;
  source: SearchSource;
  /** The `type` filter, `''` for all types. */
  type: string;
  /** The stored form of the query (`storedQuery`). */
  query: string;
  /** Results in the answer. */
  results: number;
  match: MatchKind;
  /** The corrected query the answer showed results for, `''` when none. */
  suggestion: string;
}

/** One result opened from the box. */
export interface ClickEvent {
  day: string;
  site: string;
  query: string;
  /** The result's path (and `#anchor`) on the site. */
  url: string;
  /** 1 for the first result. */
  rank: number;
}

/** What a search answer says about itself: read from the outcome on a miss, from the cached body on a hit. */
export interface AnswerSummary {
  results: number;
  match: MatchKind;
  suggestion: string;
}

/** What analytics read of a search answer: its results' `match` and its suggestion. */
export interface AnswerBody {
  results?: readonly { match?: string }[];
  suggestion?: string;
}

/** The summary of an answer body (`{ results: [{ match }], suggestion? }`). */
export function summarize(body: AnswerBody): AnswerSummary {
  const results = body.results ?? [];
  const first = results[0]?.match;
  const match: MatchKind = first === 'all' || first === 'any' || first === 'typo' ? first : 'none';
  return { results: results.length, match, suggestion: body.suggestion ?? '' };
}

/** Today in UTC, as the day analytics are counted under. */
export function utcDay(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}
