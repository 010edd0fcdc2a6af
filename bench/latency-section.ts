/**
 * The "Handler against its floor" part of docs/benchmarks.md (issue 36): the handler beside FTS5's bm25 top 10 and
 * `snippet()` of those 10 over the expression it answered, query by query, in process CPU time. Written by
 * `npm run bench` with the rest of the page; printed alone by `npm run bench:latency`.
 */
import type { FloorReport } from './perf/answered-floor.js';
import { ROUNDS } from './perf/measure.js';
import { MIX, mixShares } from './perf/query-mix.js';

const ms = (x: number) => x.toFixed(2);
const times = (x: number) => `${x.toFixed(2)}×`;
const thousands = (n: string) => Number(n).toLocaleString('en');

/** The query mix by kind, as a sentence. */
export function mixSentence(): string {
  const counts = Object.entries(mixShares()).map(([kind, share]) => `${kind} ${Math.round(share * MIX.length)} (${(share * 100).toFixed(0)}%)`);
  return `${MIX.length} queries: ${counts.join(', ')}`;
}

/** The section, from each size's report; `load` says when the machine was busier than its cores. */
export function floorSection(floor: Record<string, FloorReport>, load?: { highest: number; cores: number }): string {
  const sizes = Object.keys(floor);
  if (!sizes.length) return '';
  const rows = sizes.map((n) => {
    const f = floor[n]!;
    return `| ${thousands(n)} | ${ms(f.handler.p50)} / ${ms(f.handler.p99)} | ${ms(f.floor.p50)} / ${ms(f.floor.p99)} | **${times(f.ofPercentiles.p50)} / ${times(f.ofPercentiles.p99)}** | ${times(f.ratio.p50)} / ${times(f.ratio.p99)} | ${Object.entries(f.paths).map(([p, c]) => `${p} ${c}`).join(', ')} |`;
  });
  const slowest = sizes.map((n) => {
    const lines = floor[n]!.slowest.map((s, i) => `| ${i + 1} | \`${s.query}\` [${s.lang}] | ${s.path} | ${ms(s.handler)} | ${ms(s.floor)} | ${times(s.ratio)} |`);
    return `At ${thousands(n)} documents, the ten queries furthest above their floor:

| | query | path | handler ms | floor ms | ratio |
|---|---|---|---|---|---|
${lines.join('\n')}`;
  });
  const beside = sizes.flatMap((n) =>
    Object.entries(floor[n]!.beside ?? {}).map(([pair, f]) => `| ${thousands(n)} | ${pair} | ${ms(f.handler.p50)} / ${ms(f.handler.p99)} | ${ms(f.floor.p50)} / ${ms(f.floor.p99)} | ${times(f.ofPercentiles.p50)} / ${times(f.ofPercentiles.p99)} |`),
  );
  const split = beside.length
    ? `\n\nWhere the gap comes from, in the same run. The coverage ranking (issue 35) ranks every page holding an informative
word of the query, where the answered floor of a query on the strict path ranks only the pages holding every word: the
first row measures the handler against a floor over what it ranks. The second runs the handler with SPEC.md's literal
ranking (\`ranking: 'fts5'\`: every word first, no coverage, titles or headings) against the answered floor.

| documents | pair | handler p50 / p99 ms | floor p50 / p99 ms | ratio at p50 / p99 |
|---|---|---|---|---|
${beside.join('\n')}`
    : '';
  const busy = load && load.highest > load.cores ? `\n\n**This run's machine was busy**: a 1-minute load average up to ${load.highest.toFixed(1)} on ${load.cores} cores (the bench warns when it exceeds them). CPU time counts only this process, but shares caches and clock with the rest: rerun on a quiet machine before comparing with another run.` : '';
  return `### The handler against its floor, query by query

Issue 36's criterion. The floor of each query is FTS5's bm25 top 10 and \`snippet()\` of those 10 (found again by rowid,
as the handler finds its page's rows), over the expression the handler answered: every word of the query when its
results all hold every word (\`everyWordMatch\`), any of its words when some came from widening (\`coverageMatch\`), each
with the corrected or completed words when the handler corrected (the path). Both are the handler's own expression
builders from src/search/query.ts; the path and the corrections are derived from its response (results' \`match\`,
\`suggestion\`) and its first statement's typo candidates. The floor ranks every language's pages (no type filter), with
the handler's column weights. Each query is timed in **process CPU time** (\`process.cpuUsage()\` around it), handler
and floor interleaved with the other rows, ${ROUNDS} rounds after a warm-up; a query's figure is its median over rounds,
and the percentiles are over the queries. Query mix: ${mixSentence()}.

| documents | handler p50 / p99 ms | floor p50 / p99 ms | handler ÷ floor at p50 / p99 (target ≤ 1.5× / ≤ 1.0×) | per-query ratio p50 / p99 | paths |
|---|---|---|---|---|---|
${rows.join('\n')}

${slowest.join('\n\n')}${split}${busy}`;
}
