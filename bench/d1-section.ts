/**
 * The "D1 under Miniflare" section of docs/benchmarks.md: rows read (what D1 bills) and round trips per search, by
 * query class, with a model of what the network adds. Written by `npm run bench` with the rest of the page, or alone
 * by `npm run bench:d1`, which replaces only this section.
 */
import type { d1 } from './perf.js';

export type D1Figures = Awaited<ReturnType<typeof d1>>;

/**
 * The same figures for the design before one statement per search (one statement per step, then the details and the
 * sections), measured by `npm run bench` at commit 332875a on this machine: what the current design is compared with.
 */
const PREVIOUS: Record<string, { trips: number; maxTrips: number; rowsRead: number; p50ms: number }> = {
  'every term (strict)': { trips: 3.3, maxTrips: 5, rowsRead: 899, p50ms: 33.3 },
  'typo correction or completion': { trips: 5.6, maxTrips: 7, rowsRead: 816, p50ms: 66.6 },
  'any term (widened)': { trips: 6.4, maxTrips: 9, rowsRead: 2997, p50ms: 84.5 },
};

const RTTS = [1, 10, 30, 80];

/** The long questions' paragraph: what a question asked through MCP reads beside the box's mix. */
function longQuestions(d1: D1Figures): string {
  const long = d1.longQuestions;
  if (!long.queries) return '';
  return `
Long questions (issue 53), as an assistant asks them through MCP's \`search\` (up to 500 characters, each searched for
its rarest informative words, [ranking.md](ranking.md#long-questions)): Astro's ${long.queries} labeled long questions read
${Math.round(long.meanRowsRead).toLocaleString('en')} rows at the mean (${(long.meanRowsRead / d1.meanRowsRead).toFixed(2)}× the mix's searches; p99 ${Math.round(long.p99RowsRead).toLocaleString('en')}), in at most ${long.maxTrips} round trips.
`;
}

const roundTo = (x: number) => {
  const step = 10 ** Math.max(0, Math.floor(Math.log10(x)) - 1);
  return (Math.round(x / step) * step).toLocaleString('en');
};

function row(name: string, design: string, queries: number | string, c: { trips: number; maxTrips: number; rowsRead: number; p50ms: number }): string {
  const modeled = RTTS.map((rtt) => `${(c.trips * rtt + c.p50ms).toFixed(0)} ms`).join(' | ');
  return `| ${name} | ${design} | ${queries} | ${c.trips.toFixed(1)} (max ${c.maxTrips}) | ${Math.round(c.rowsRead).toLocaleString('en')} | ${c.p50ms.toFixed(1)} ms | ${modeled} |`;
}

export function d1Section(d1: D1Figures): string {
  const rows = d1.network.flatMap((c) => {
    const before = PREVIOUS[c.name];
    return [row(c.name, 'one statement', c.queries, c), ...(before ? [row('', 'before (332875a)', '', before)] : [])];
  });
  return `## D1 under Miniflare

**Command:** \`npm run bench:d1\` (about a minute; also part of \`npm run bench\`), which rewrites only this section.
**Date:** ${new Date().toISOString().slice(0, 10)}. The 1,831 pages pushed to a local D1; the query mix through the handler. D1 bills rows read: per query p50
${d1.rowsRead.p50}, p95 ${d1.rowsRead.p95}, p99 ${d1.rowsRead.p99} (mean ${Math.round(d1.meanRowsRead)}). Through the Worker
(\`createWorker\`, \`caches.default\`), p50 / p95 / p99 ms: first request ${d1.miss.p50.toFixed(2)} / ${d1.miss.p95.toFixed(2)} / ${d1.miss.p99.toFixed(2)}, repeated
request served from the cache ${d1.hit.p50?.toFixed(2)} / ${d1.hit.p95?.toFixed(2)} / ${d1.hit.p99?.toFixed(2)} (no database call).
The same searches asking for the type and tag counts (\`facets=type,tags\`, docs/http-api.md) read ${Math.round(d1.facets.meanRowsRead).toLocaleString('en')} rows
at the mean (${(d1.facets.meanRowsRead / d1.meanRowsRead).toFixed(2)}× the plain search), in at most ${d1.facets.maxTrips} round trips, as without them: the counts read
every match of the query once more, in every type (a type's count ignores the \`type\` filter, here one type per
language), in one aggregate over the full-text rows, whose columns D1 does not bill, with no \`GROUP BY\` to sort
them (a row per tag of the matches in the type asked, none per untagged page). A box shows counts only with its
\`facets\` attribute, and a page of results served from the edge cache reads none.

What that means for a bill: at the mean, D1's free allowance of 5 million rows read a day covers about
${roundTo(5e6 / d1.meanRowsRead)} searches a day that miss the cache, and the 25 billion a month included in Workers Paid about
${roundTo(25e9 / d1.meanRowsRead)} a month (D1's pricing as of 2026). Rows read grow with how many pages a query matches (so, for
common words, with the size of the site): D1 counts a row for each page a full-text query yields and one for each page bm25 scores, so
by hand the bare ranking of \`sitemap\` (22 of these pages) reads 44 rows and that of \`astro\` (1,530 pages) 3,060. D1 also counts
the rows a statement reads back from its own intermediate results, which is why the search statement reads each of them as
few times as it can. Through a D1 binding the search takes the plan that reads fewer rows
([decisions.md](decisions.md#on-d1-a-search-takes-the-plan-that-reads-fewer-rows)): FTS5 sorts phase 1's matches itself
(\`ORDER BY rank\`), whose rows D1 does not bill but the ones it hands over; each page of the window of 100 looks its
title, headings and coverage up by rowid; the page's rows are found again by rowid. A repeated query served from the
edge cache reads none. The handler is given the binding as a D1 binding (with \`withSession\`), and its session reads the
plain binding: in Miniflare a real session adds a few milliseconds of local time to each statement, which a replica
near the Worker does not.
${longQuestions(d1)}
### Round trips on D1

On D1 each statement is a round trip from the Worker to the database: about a millisecond when both are in one place,
tens of milliseconds when the database (or its nearest replica) is elsewhere. A search is one statement, both phases,
its page, snippets, sections and facet counts in it. The first search of an isolate reads the site's vocabulary (a few
packed rows) in the statement before its ranking, with the counts it needs; from then on a search with a word to
correct or complete first counts, per type judged, the pages holding every word as typed (up to 10), then ranks: two
statements, never more. Per search of the mix, by the loosest step its results came from, through the same handler on
the local D1: statements (round trips), rows read, the local time (which already includes one local round trip per
statement), and a model of the time a visitor waits on a cache miss, round trips × RTT + local time, next to the same
for the design of one statement per step (then the details, then the sections) measured at 332875a:

| query class | design | queries | round trips | rows read | local p50 | RTT 1 ms | RTT 10 ms | RTT 30 ms | RTT 80 ms |
|---|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}
`;
}
