import { resolveConfig } from './config.js';
import { forSearch } from './db/d1.js';
import type { SearchDatabase, SqlValue } from './db/types.js';
import type { ResolvedConfig, SearchOptions } from './options.js';
import {
  allTermsMatch,
  anyTermMatch,
  correctedTermsMatch,
  codePointLength,
  MIN_QUERY_LENGTH,
  normalizeSearchInput,
  searchTerms,
  wordsOf,
  type RawSearchInput,
  type SearchInput,
} from './query.js';
import { DAY_OF_DATE, DOCS_TABLE, SECTION_MATCH_CHARS, SECTIONS_TABLE, TABLE } from './schema.js';
import { foldWord } from './fold.js';
import { removeWordBreaks } from './segment.js';
import { escapeSnippet, MARK_CLOSE_CODE, MARK_OPEN_CODE } from './snippet.js';
import { findCorrections } from './typos.js';

/** One search hit, as the endpoint returns it (SPEC.md "Search result"). */
export interface SearchResult {
  title: string;
  /** Absolute when an origin is known (always, through the endpoint). */
  url: string;
  type: string;
  /** `YYYY-MM-DD`, or `''` when undated. */
  date: string;
  /** Space-separated. */
  tags: string;
  emoji: string;
  /** HTML-escaped excerpt in which only the `<mark>…</mark>` pairs are markup: safe to render as HTML. */
  snippet: string;
  /** bm25 × recency multiplier; lower is better. */
  score: number;
  /**
   * Which step found the document: `all` (every term, as SPEC.md specifies), `any` (some of the terms) or `typo`
   * (a word corrected within 1–2 edits, tried before `any`). Looser steps only run when stricter ones find fewer than
   * `limit` results.
   */
  match: MatchStep;
  /** The section of the page that matches best (its heading, and the page URL with the heading's `#anchor`). */
  section?: { heading: string; url: string };
}

/** The search steps, strictest first. */
export type MatchStep = 'all' | 'any' | 'typo';

/** A search's results, and the corrected query when typo tolerance found them ("showing results for …"). */
export interface SearchOutcome {
  results: SearchResult[];
  suggestion?: string;
}

/** Arguments of {@link searchIndex}: the endpoint's query parameters plus the database and origin. */
export interface SearchArgs extends RawSearchInput {
  db: SearchDatabase;
  /** Origin that stored relative URLs are resolved against (`https://example.com`). Without it URLs stay relative. */
  origin?: string;
  /** The moment recency is measured from. Default: now. */
  now?: Date;
}

/**
 * Searches the index exactly as the endpoint does: same validation (throws `SearchInputError` with the 400 message),
 * same ranking, same snippets. For server-rendered search pages.
 *
 * @example const results = await searchIndex(config, { db, q: 'content collections', limit: 5, origin: Astro.url.origin });
 */
export async function searchIndex(config: SearchOptions | ResolvedConfig, args: SearchArgs): Promise<SearchResult[]> {
  const resolved = resolveConfig(config);
  const input = normalizeSearchInput(resolved, args);
  return (await runSearch(resolved, forSearch(args.db), input, args.origin, args.now)).results;
}

interface DetailRow {
  id: number;
  title: string | null;
  url: string | null;
  type: string | null;
  date: string | null;
  tags: string | null;
  emoji: string | null;
  description: string | null;
  snippet: string | null;
}

/**
 * Runs a validated search, widening step by step so a query is never a dead end: every term (SPEC.md), then any of
 * them, then with misspelled words corrected. Every step is built only from quoted literal terms and bound
 * parameters. Results of a stricter step come first; the decision to widen depends only on the query and `limit`, so
 * paging is stable. Queries under the minimum length return nothing without touching the database.
 */
export async function runSearch(
  config: ResolvedConfig,
  db: SearchDatabase,
  input: SearchInput,
  origin?: string,
  now: Date = new Date(),
): Promise<SearchOutcome> {
  const first = await searchOnce(config, db, input, origin, now);
  // A search is several statements, each reading the index as it is at that moment. If a push committed between the
  // ranking and the details, some ranked rows are gone: search again, now on the new index throughout.
  return first.complete ? first.outcome : (await searchOnce(config, db, input, origin, now)).outcome;
}

async function searchOnce(
  config: ResolvedConfig,
  db: SearchDatabase,
  input: SearchInput,
  origin: string | undefined,
  now: Date,
): Promise<{ outcome: SearchOutcome; complete: boolean }> {
  const done = (outcome: SearchOutcome, complete = true) => ({ outcome, complete });
  if (codePointLength(input.q) < MIN_QUERY_LENGTH) return done({ results: [] });
  const terms = searchTerms(input.q, config.maxTerms);
  if (terms.length === 0) return done({ results: [] });

  const k = input.offset + input.limit;
  const today = dayNumber(now);
  const ranked: Ranked[] = [];
  const seen = new Set<number>();
  const matches: string[] = [];
  // Each step's matches include the previous steps' (or the step ranks first: the corrected query), so its top k
  // always holds enough new rows.
  const step = async (match: string, name: MatchStep) => {
    matches.push(match);
    const top = await rankTopResults(config, db, match, input, k, today);
    const fresh = top.filter((r) => !seen.has(r.id)).slice(0, k - ranked.length);
    for (const r of placeAfter(fresh, ranked)) {
      seen.add(r.id);
      ranked.push({ ...r, match: name });
    }
  };

  await step(allTermsMatch(terms), 'all');
  let suggestion: string | undefined;
  let corrections = new Map<string, string[]>();
  if (config.widen && ranked.length < input.limit) {
    // A misspelled word is never in the index, so the strict step finding everything it needs means there is none.
    // Otherwise correct before widening: the pages with the corrected word are the answer, and would be buried
    // under pages matching only the query's other words if they came after the any-term step.
    corrections = await findCorrections(db, terms, { site: config.site, type: input.type });
    if (corrections.size > 0) await step(correctedTermsMatch(terms, corrections), 'typo');
    if (ranked.length < input.limit) await step(anyTermMatch(terms), 'any');
    if (ranked.length < input.limit && corrections.size > 0) await step(anyTermMatch(terms, [...corrections.values()].flat()), 'typo');
    if (ranked.some((r) => r.match === 'typo')) suggestion = terms.map((t) => corrections.get(t)?.[0] ?? t).join(' ');
  }

  const page = ranked.slice(input.offset, k);
  if (page.length === 0) return done({ results: [], suggestion });
  const placeholders = page.map(() => '?').join(', ');
  // Every step's rows, with every step's words marked in the snippet.
  const widest = matches.length === 1 ? matches[0]! : matches.map((m) => `(${m})`).join(' OR ');
  const { results } = await db
    .prepare(
      `SELECT rowid AS id, title, url, type, date, tags, emoji, description,
        snippet(${TABLE}, 2, char(${MARK_OPEN_CODE}), char(${MARK_CLOSE_CODE}), '…', ${config.snippetTokens}) AS snippet
      FROM ${TABLE} WHERE ${TABLE} MATCH ? AND rowid BETWEEN ? AND ? AND +rowid IN (${placeholders})`,
    )
    // "+rowid" keeps SQLite from running the MATCH once per listed row (a prefix like "co"* would be expanded each
    // time); the range lets FTS5 skip to the rows that matter.
    .bind(widest, Math.min(...page.map((r) => r.id)), Math.max(...page.map((r) => r.id)), ...page.map((r) => r.id))
    .all<DetailRow>();
  const byId = new Map(results.map((row) => [Number(row.id), row]));
  // Pages found through a correction have the corrected word, not the typed one, in their sections.
  const sections = await bestSections(db, [...terms.flatMap(wordsOf), ...[...corrections.values()].flat()], page.map((r) => r.id));
  const absoluteUrl = urlResolver(origin);

  return done({
    suggestion,
    results: page.flatMap(({ id, score, match }) => {
      const row = byId.get(id);
      if (!row) return [];
      const snippet = escapeSnippet(removeWordBreaks(row.snippet || excerpt(row.description ?? '', config.snippetTokens)));
      const url = absoluteUrl(row.url ?? '');
      return [
        {
          title: removeWordBreaks(row.title ?? ''),
          url,
          type: row.type ?? '',
          date: row.date ?? '',
          tags: removeWordBreaks(row.tags ?? ''),
          emoji: row.emoji ?? '',
          snippet,
          score,
          match,
          ...sectionOf(sections.get(id), url),
        },
      ];
    }),
  }, byId.size === page.length);
}

/**
 * A page's description, standing in for an empty snippet (a page matched by its title alone), bounded like a snippet:
 * about `tokens` words, cut at a space.
 */
function excerpt(description: string, tokens: number): string {
  const max = tokens * 12;
  if (description.length <= max) return description;
  const cut = description.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\uD800-\uDBFF]$/, '')}…`;
}

/**
 * For each page, its best-matching headed section: the one whose heading and text hold the most occurrences of the
 * query's words (a heading occurrence counts ten times). Reads only the sections of the pages returned (index
 * lookups); an index without a sections table (built by an older indexer) simply has none.
 */
async function bestSections(db: SearchDatabase, terms: string[], pages: number[]): Promise<Map<number, { heading: string; anchor: string }>> {
  const best = new Map<number, { heading: string; anchor: string }>();
  if (pages.length === 0) return best;
  let rows: { page: number; heading: string; anchor: string; content: string }[];
  try {
    ({ results: rows } = await db
      // Indexes written before sections were stored cut to their start hold whole sections: read only that start.
      .prepare(
        `SELECT page, heading, anchor, substr(content, 1, ${SECTION_MATCH_CHARS}) AS content FROM ${SECTIONS_TABLE}
        WHERE page IN (${pages.map(() => '?').join(', ')}) ORDER BY page, position`,
      )
      .bind(...pages)
      .all());
  } catch (e) {
    if (/no such table/i.test(String((e as Error).message))) return best;
    throw e;
  }
  const words = sectionWords(terms);
  const bestScore = new Map<number, number>();
  for (const row of rows) {
    // The stored text is already folded (an index written before 0.2 holds it as written, and counts only its
    // lowercase words until the next push).
    const score = 10 * occurrences(foldWord(row.heading), words) + occurrences(row.content, words);
    const page = Number(row.page);
    if (score > (bestScore.get(page) ?? 0)) {
      bestScore.set(page, score);
      best.set(page, { heading: row.heading, anchor: row.anchor });
    }
  }
  return best;
}

/**
 * The stems a section is scored by: each query word folded, long ones cut by two letters (so "collections" finds
 * "collection"). A one-letter Latin word ("a", "i") is left out when the query has others: as a stem it starts
 * every tenth word of the text, so it only blurs the choice (and was most of what counting cost).
 */
function sectionWords(terms: string[]): string[] {
  const stems = terms.map(foldWord).filter((w) => w.length > 0).map((w) => (w.length > 5 ? w.slice(0, -2) : w));
  const telling = stems.filter((w) => !(w.length === 1 && w.charCodeAt(0) < 128));
  return telling.length > 0 ? telling : stems;
}

/** How many times words start with one of `stems` in `text` (so "collection" counts for "collections"). */
function occurrences(text: string, stems: string[]): number {
  let n = 0;
  for (const stem of stems) {
    for (let i = text.indexOf(stem); i !== -1; i = text.indexOf(stem, i + stem.length)) {
      if (i === 0 || !isWordChar(text.charCodeAt(i - 1))) n++;
    }
  }
  return n;
}

/** Letters and digits, cheaply for ASCII; anything else non-ASCII counts as a word character except the word break. */
function isWordChar(code: number): boolean {
  if (code < 128) return (code >= 48 && code <= 57) || (code >= 97 && code <= 122) || (code >= 65 && code <= 90);
  return code !== 0x200b && code !== 0x3000 && !(code >= 0x3001 && code <= 0x303f) && !(code >= 0xff01 && code <= 0xff0f);
}

function sectionOf(found: { heading: string; anchor: string } | undefined, pageUrl: string) {
  if (!found) return {};
  return { section: { heading: removeWordBreaks(found.heading), url: `${pageUrl}#${found.anchor}` } };
}

interface Ranked {
  id: number;
  score: number;
  match: MatchStep;
}

/**
 * A looser step's scores come from another match expression and do not compare with a stricter step's, yet results
 * must stay in ascending score order. Scale them (order kept) so the best lands just behind the stricter steps'
 * worst. Documents found by the SPEC.md query itself keep their SPEC.md score exactly.
 */
function placeAfter(fresh: { id: number; score: number }[], before: Ranked[]): { id: number; score: number }[] {
  const best = fresh[0]?.score;
  const worstBefore = before[before.length - 1]?.score;
  if (best === undefined || worstBefore === undefined || best >= worstBefore) return fresh;
  const factor = (worstBefore / best) * (1 - 1e-9);
  return fresh.map((r) => ({ ...r, score: r.score * factor }));
}

/** Databases known to lack the `search_docs` side table (indexes written by older indexers or astro-d1-search). */
const withoutDocsTable = new WeakSet<SearchDatabase>();

/**
 * The top `k` rows by score = bm25 × recency multiplier, exactly, in one query. Site, type and day come from the
 * small `search_docs` row rather than the FTS5 content row (which carries the whole body); rows missing there (an
 * index written another way) fall back to their own columns. FTS5 still scores every match (it has no early
 * termination), which is the floor for very common words; docs/benchmarks.md measures it.
 */
async function rankTopResults(
  config: ResolvedConfig,
  db: SearchDatabase,
  match: string,
  input: SearchInput,
  k: number,
  today: number,
): Promise<{ id: number; score: number }[]> {
  const { title, description, content, tags } = config.weights;
  const { boost, windowDays } = config.recency;
  const side = !withoutDocsTable.has(db);
  const column = (name: string) => (side ? `coalesce(d.${name}, f.${name})` : `f.${name}`);
  const dated = side ? `CASE WHEN d.id IS NULL THEN ${DAY_OF_DATE('f.date')} ELSE d.day END` : DAY_OF_DATE('f.date');
  // Sources with `recency: false` rank as undated (their date is still returned).
  const undated = boost > 0 ? config.sources.filter((s) => s.recency === false).map((s) => s.type) : [];
  const day = undated.length ? `CASE WHEN ${column('type')} IN (${undated.map(() => '?').join(', ')}) THEN NULL ELSE ${dated} END` : dated;
  const recency = boost > 0 ? ` * (CASE WHEN day IS NULL THEN 1.0 ELSE 1.0 + ${boost} * max(0.0, min(1.0, 1.0 - max(0, ? - day) / ${windowDays}.0)) END)` : '';

  const filters: string[] = [];
  const params: SqlValue[] = [];
  if (config.site) filters.push(`${column('site')} = ?`), params.push(config.site);
  if (input.type) filters.push(`${column('type')} = ?`), params.push(input.type);
  const sql = `SELECT id, bm${recency} AS score FROM (
      SELECT f.rowid AS id, bm25(${TABLE}, ${title}, ${description}, ${content}, ${tags}) AS bm, ${day} AS day
      FROM ${TABLE} f${side ? ` LEFT JOIN ${DOCS_TABLE} d ON d.id = f.rowid` : ''}
      WHERE ${TABLE} MATCH ?${filters.map((f) => ` AND ${f}`).join('')})
    ORDER BY score, id LIMIT ?`;
  try {
    const { results } = await db
      .prepare(sql)
      .bind(...(boost > 0 ? [today] : []), ...undated, match, ...params, k)
      .all<{ id: number; score: number }>();
    return results.map((r) => ({ id: Number(r.id), score: Number(r.score) }));
  } catch (e) {
    if (side && new RegExp(`no such table: ${DOCS_TABLE}`, 'i').test(String((e as Error).message))) {
      withoutDocsTable.add(db);
      return rankTopResults(config, db, match, input, k, today);
    }
    throw e;
  }
}

const MS_PER_DAY = 86_400_000;

function dayNumber(date: Date): number {
  return Math.floor(date.getTime() / MS_PER_DAY);
}

/** A path that resolves against an origin as it is written: no dot segments, nothing to percent-encode. */
const PLAIN_PATH = /^\/(?![/\\])[A-Za-z0-9\-_~./]*$/;

/**
 * Resolves each result's stored path against the origin: `new URL` once per search, not once per result. A result
 * never leaves the site: a stored path the URL parser would read as another host (`//evil.example`, `/\\evil`, a
 * scheme, control characters hiding either) is taken as a path on the origin instead.
 * @internal
 */
export function urlResolver(origin: string | undefined): (path: string) => string {
  if (!origin) return onSite;
  let base: string;
  try {
    base = new URL(origin).origin;
  } catch {
    return onSite;
  }
  // An opaque origin ("null", from a non-http URL) has nothing to prepend: the URL parser decides.
  const plain = base !== 'null';
  return (path) => {
    if (plain && PLAIN_PATH.test(path) && !path.includes('/.')) return base + path;
    try {
      const url = new URL(path, origin);
      if (url.origin === base) return url.href;
    } catch {}
    try {
      return new URL(onSite(path), origin).href;
    } catch {
      return onSite(path);
    }
  };
}

/** What the URL parser ignores or reads as a host or scheme at the start of a path. */
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
const OFF_SITE = /^(?:[\s\\/]{2}|[a-z][a-z0-9+.-]*:)/i;

/** The stored path, or, when it would lead off the site, the same path under the site's root. */
function onSite(path: string): string {
  const bare = path.replace(CONTROLS, '');
  return OFF_SITE.test(bare.trimStart()) || bare !== path ? `/${bare.replace(/^[\s\\/]+/, '')}` : path;
}
