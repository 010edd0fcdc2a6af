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
    ? `\n\nBeside it, in the same run: the handler against the narrower floor of what it answered (every word of the query
when every result holds it, as issue 36 measured), SPEC.md's literal ranking (\`ranking: 'fts5'\`) against that floor,
and the handler asked for the facet counts (\`facets=type,tags\`) against the same handler without them.

| documents | pair | handler p50 / p99 ms | floor p50 / p99 ms | ratio at p50 / p99 |
|---|---|---|---|---|
${beside.join('\n')}`
    : '';
  const busy = load && load.highest > load.cores ? `\n\n**This run's machine was busy**: a 1-minute load average up to ${load.highest.toFixed(1)} on ${load.cores} cores (the bench warns when it exceeds them). CPU time counts only this process, but shares caches and clock with the rest: rerun on a quiet machine before comparing with another run.` : '';
  return `### The handler against its floor, query by query

Issue 52's criterion. The floor of each query is FTS5's bm25 top 10 and \`snippet()\` of those 10 (found again by rowid,
as the handler finds its page's rows) over any informative word of the query (filler out; the words the search
corrected or completed in), with the handler's column weights, ranking every type's pages (no type filter): what any
FTS5 box that ranks every page holding one of the query's words pays for the same answer. The corrections are the
search's own judgement of the query (\`judgeQuery\`); the path is read from its results' \`match\`. Each query is timed in **process CPU time** (\`process.cpuUsage()\` around it), handler
and floor interleaved with the other rows, ${ROUNDS} rounds after a warm-up; a query's figure is its median over rounds,
and the percentiles are over the queries. Query mix: ${mixSentence()}.

| documents | handler p50 / p99 ms | floor p50 / p99 ms | handler ÷ floor at p50 / p99 (target ≤ 1.5× / ≤ 1.0×) | per-query ratio p50 / p99 | paths |
|---|---|---|---|---|---|
${rows.join('\n')}

${slowest.join('\n\n')}${split}${busy}`;
}
