import { SearchInputError } from '../errors.js';
import type { ResolvedConfig } from '../options/options.js';
import { codePointLength } from '../text/code-points.js';
import { MIN_QUERY_LENGTH } from '../text/query-length.js';

/** A click report is three short fields; anything longer is not one. */
export const MAX_CLICK_BODY_BYTES = 2048;

/** A click report as the box sends it: `{ "q": "…", "url": "https://site/page/", "rank": 2 }`. */
export interface ClickReport {
  q: string;
  /** The opened result's path and `#anchor` on the site. */
  url: string;
  rank: number;
}

/**
 * Reads a click report from a POST body (what `navigator.sendBeacon` sends: text/plain JSON). Throws a
 * {@link SearchInputError} (a 400) for a body too large, not JSON, missing a field, or naming a URL on another origin:
 * only results of this site are counted.
 */
export async function readClickReport(request: Request, config: ResolvedConfig, siteOrigin: string): Promise<ClickReport> {
  const body = await boundedText(request, MAX_CLICK_BODY_BYTES);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new SearchInputError('A click report must be JSON such as {"q":"deploy","url":"https://example.com/docs/deploy/","rank":1}.');
  }
  const { q, url, rank } = (parsed ?? {}) as Partial<Record<keyof ClickReport, unknown>>;
  if (typeof q !== 'string' || codePointLength(q.trim()) < MIN_QUERY_LENGTH || codePointLength(q) > config.maxQueryLength) {
    throw new SearchInputError(`A click report needs "q": the query, ${MIN_QUERY_LENGTH} to ${config.maxQueryLength} characters.`);
  }
  const maxRank = config.maxOffset + config.maxLimit;
  if (typeof rank !== 'number' || !Number.isInteger(rank) || rank < 1 || rank > maxRank) {
    throw new SearchInputError(`A click report needs "rank": the result's position, 1 to ${maxRank}.`);
  }
  let target: URL;
  try {
    target = new URL(String(url));
  } catch {
    throw new SearchInputError('A click report needs "url": the absolute URL of the result opened.');
  }
  if (target.origin !== siteOrigin) throw new SearchInputError(`A click report's "url" must be on this site (${siteOrigin}).`);
  return { q: q.trim(), url: `${target.pathname}${target.hash}`, rank };
}

/** The body as text, refusing (before reading it all) one longer than `limit` bytes. */
async function boundedText(request: Request, limit: number): Promise<string> {
  const tooLarge = () => new SearchInputError(`A click report is at most ${limit} bytes.`);
  if (Number(request.headers.get('content-length') ?? 0) > limit) throw tooLarge();
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch {
      // The client closed the connection partway: no report, and nothing worth a log line.
      throw new SearchInputError('A click report must be sent whole: the connection closed before its end.');
    }
    const { done, value } = chunk;
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      void reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) bytes.set(chunk, (at += chunk.byteLength) - chunk.byteLength);
  return new TextDecoder().decode(bytes);
}
