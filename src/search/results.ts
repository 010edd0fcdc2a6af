/**
 * A ranking statement's rows as the endpoint answers them: in the order the statement decided, each with its URL on the
 * site's origin, its snippet escaped, its best sections, and how it was found; the suggestion its first result calls
 * for; the facet counts.
 */
import type { CorrectionGroup, MatchStep, RankedRow, Ranking } from '../ranking/types.js';
import { wordsOf } from '../ranking/expressions.js';
import { removeWordBreaks } from '../text/segment.js';
import { facetsOfJson, type FacetCounts } from './facets.js';
import { matchingSections, sectionOf, sectionSnippet, sectionToLink, sectionWords } from './sections.js';
import { escapeSnippet } from './snippet.js';
import { urlResolver } from './urls.js';

/** One search hit, as the endpoint returns it (docs/http-api.md, "Success response"). */
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
  /** Lower is better: the results come in ascending score, through every page of the answer. */
  score: number;
  /**
   * How the page was found: `all` (it holds every word of the query, the last possibly completed), `any` (some of
   * them) or `typo` (with a misspelled word corrected in its type).
   */
  match: MatchStep;
  /** The section of the page that matches best (its heading, and the page URL with the heading's `#anchor`). */
  section?: { heading: string; url: string };
  /**
   * The page's sections that match the query, best first, at most `sections` (option, default 3): each with its
   * heading, its URL (with the `#anchor`) and a snippet of its text as safe as `snippet`. Absent when none matches.
   */
  sections?: { heading: string; url: string; snippet: string }[];
}

/** A search's results, and the corrected query when typo tolerance found them ("showing results for …"). */
export interface SearchOutcome {
  results: SearchResult[];
  suggestion?: string;
  /** The counts asked for with `facets` (docs/http-api.md, "Filters and facets"). */
  facets?: FacetCounts;
}

/** What formatting the rows needs beside them. */
export interface Formatting {
  /** The words searched. */
  terms: readonly string[];
  /** Every word of the query: the suggestion is the query with its misspellings corrected, whatever was searched of it. */
  words: readonly string[];
  groups: readonly CorrectionGroup[];
  /** Synonyms and docs-vocabulary words: a section holding them matches too. */
  alike: readonly string[];
  ranking: Pick<Ranking, 'match'>;
  origin: string | undefined;
  /** How many sections each result lists (`sections` option). */
  sections: number;
  snippetTokens: number;
}

/** About how many words a section's snippet shows: a line under its heading, shorter than the page's snippet. */
const SECTION_SNIPPET_TOKENS = 16;

/** The outcome of a ranking statement's rows. */
export function outcomeOf(rows: readonly RankedRow[], f: Formatting): SearchOutcome {
  const misspelledIn = new Map(f.groups.filter((g) => !g.completion).flatMap((g) => g.types.map((type) => [type, g] as const)));
  const misspelled = (type: string) => misspelledIn.has(type);
  // A punctuated term's words (`client:load`: client, load), and the corrected words, which pages found through a
  // correction hold in their sections instead of the typed ones.
  const meant = [...f.terms.flatMap(wordsOf), ...f.groups.flatMap((g) => [...g.corrections.values()].flat())];
  const words = sectionWords([...meant, ...f.alike].flatMap((w) => w.split(' ')));
  // Whether a section holds more of the query than the page's introduction counts the words meant, not their synonyms.
  const typed = sectionWords(meant);
  const absoluteUrl = urlResolver(f.origin);
  // Each result at its place in the answer, as the statement decided it.
  const page = rows.filter((row) => row.id !== null).sort((a, b) => Number(a.place) - Number(b.place));
  const results = page.map((row): SearchResult => {
    const url = absoluteUrl(row.url ?? '');
    const matched = matchingSections(row.sections, words, Math.max(1, f.sections), typed);
    const listed = f.sections > 0 && matched.length
      ? { sections: matched.map((s) => ({ ...sectionOf(s, url).section!, snippet: escapeSnippet(sectionSnippet(s.lead, words, SECTION_SNIPPET_TOKENS)) })) }
      : {};
    return {
      title: removeWordBreaks(row.title ?? ''),
      url,
      type: row.type ?? '',
      date: row.date ?? '',
      tags: removeWordBreaks(row.tags ?? ''),
      emoji: row.emoji ?? '',
      snippet: escapeSnippet(removeWordBreaks(row.snippet || excerpt(row.description ?? '', f.snippetTokens))),
      score: Number(row.score),
      match: f.ranking.match({ tier: Number(row.tier), holds: Number(row.holds) === 1, type: row.type ?? '' }, misspelled),
      ...sectionOf(sectionToLink(matched[0], `${row.title ?? ''} ${row.description ?? ''}`, typed), url),
      ...listed,
    };
  });
  const answer = rows[0];
  // The first result of the whole ranking decides, on every page: the answer says it shows results for the corrected
  // words when its best result was found through them. A page found as typed comes first when any type holds the
  // words, and then the reader typed a word the site has.
  const best = answer?.best_type == null ? undefined : { tier: Number(answer.best_tier), holds: Number(answer.best_holds) === 1, type: answer.best_type };
  const corrected = best && f.ranking.match(best, misspelled) === 'typo' ? misspelledIn.get(best.type) : undefined;
  const suggestion = corrected ? f.words.map((t) => corrected.corrections.get(t)?.[0] ?? t).join(' ') : undefined;
  const facets = answer?.facets ? facetsOfJson(answer.facets) : undefined;
  return { results, ...(suggestion !== undefined ? { suggestion } : {}), ...(facets ? { facets } : {}) };
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
