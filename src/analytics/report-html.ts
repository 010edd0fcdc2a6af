import type { AnalyticsStats } from './stats.js';

/** Every query in the report is text a stranger typed: nothing from the data is ever markup. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;

/** A bar chart as inline SVG: one bar per value, labels under the first and last bars. */
function barChart(title: string, bars: { label: string; value: number }[], format: (v: number) => string = String): string {
  const width = 640;
  const height = 160;
  const max = Math.max(1, ...bars.map((b) => b.value));
  const step = bars.length ? width / bars.length : width;
  const rects = bars
    .map((b, i) => {
      const h = Math.round((b.value / max) * (height - 38));
      return `<rect x="${(i * step + 1).toFixed(1)}" y="${height - 20 - h}" width="${Math.max(1, step - 2).toFixed(1)}" height="${h}"><title>${escapeHtml(`${b.label}: ${format(b.value)}`)}</title></rect>`;
    })
    .join('');
  const labels = bars.length
    ? `<text x="0" y="${height - 4}">${escapeHtml(bars[0]!.label)}</text><text x="${width}" y="${height - 4}" text-anchor="end">${escapeHtml(bars[bars.length - 1]!.label)}</text>`
    : `<text x="${width / 2}" y="${height / 2}" text-anchor="middle">no data yet</text>`;
  return `<figure><figcaption>${escapeHtml(title)}</figcaption><svg viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(title)}">${rects}${labels}<text x="${width}" y="12" text-anchor="end">max ${escapeHtml(format(max))}</text></svg></figure>`;
}

function table(caption: string, head: string[], rows: (string | number)[][]): string {
  const body = rows.length
    ? rows.map((r) => `<tr>${r.map((cell) => `<td>${escapeHtml(String(cell))}</td>`).join('')}</tr>`).join('')
    : `<tr><td colspan="${head.length}">none</td></tr>`;
  return `<table><caption>${escapeHtml(caption)}</caption><thead><tr>${head.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>${body}</tbody></table>`;
}

/** Every day of the period, days without searches as zero: a chart's gaps are days, not missing bars. */
function everyDay(stats: AnalyticsStats): AnalyticsStats['perDay'] {
  const counted = new Map(stats.perDay.map((d) => [d.day, d]));
  const days: AnalyticsStats['perDay'] = [];
  for (let t = Date.parse(stats.from); t <= Date.parse(stats.to); t += 86_400_000) {
    const day = new Date(t).toISOString().slice(0, 10);
    days.push(counted.get(day) ?? { day, searches: 0, zero: 0 });
  }
  return days;
}

/** The report as one self-contained HTML page: no script, no external file, charts as inline SVG. */
export function renderHtmlReport(stats: AnalyticsStats): string {
  const perDay = everyDay(stats);
  const maxRank = Math.max(0, ...stats.clickRanks.map((r) => r.rank));
  const ranks = Array.from({ length: maxRank }, (_, i) => ({ label: `#${i + 1}`, value: stats.clickRanks.find((r) => r.rank === i + 1)?.clicks ?? 0 }));
  const summary = [
    ['Searches', String(stats.searches)],
    ['No results', `${stats.zeroResults} (${percent(stats.zeroResultRate)})`],
    ['Results opened', `${stats.clicks} (${percent(stats.clickThroughRate)} of searches)`],
    ['Other (past the daily cap)', String(stats.other)],
    ['Asked by AI assistants (MCP, not counted above)', `${stats.assistants.searches} (${stats.assistants.zeroResults} with no results)`],
  ];
  const opened = (q: AnalyticsStats['topQueries'][number]) => q.opened.map((o) => `#${o.rank} ${o.url} ×${o.clicks}`).join(', ') || '—';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>Search analytics ${escapeHtml(stats.from)} – ${escapeHtml(stats.to)}</title>
<style>
body{font:15px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:60rem;padding:0 1rem;color:#1f2328}
h1{font-size:1.4rem}dl{display:grid;grid-template-columns:max-content auto;gap:.2rem 1rem}dt{font-weight:600}
figure{margin:1.5rem 0}figcaption,caption{font-weight:600;text-align:left;margin-bottom:.4rem}
svg{width:100%;height:auto;background:#f6f8fa}rect{fill:#0969da}text{font-size:11px;fill:#57606a}
table{border-collapse:collapse;width:100%;margin:1.5rem 0}td,th{border-bottom:1px solid #d0d7de;padding:.3rem .5rem;text-align:left;vertical-align:top}
td{white-space:pre-wrap;word-break:break-word}
</style></head><body>
<h1>Search analytics${stats.site ? ` · ${escapeHtml(stats.site)}` : ''}: ${escapeHtml(stats.from)} to ${escapeHtml(stats.to)}</h1>
<dl>${summary.map(([k, v]) => `<dt>${escapeHtml(k!)}</dt><dd>${escapeHtml(v!)}</dd>`).join('')}</dl>
${barChart('Searches per day', perDay.map((d) => ({ label: d.day, value: d.searches })))}
${barChart('Zero-result rate per day', perDay.map((d) => ({ label: d.day, value: d.searches ? d.zero / d.searches : 0 })), percent)}
${barChart('Results opened by rank', ranks)}
${table('Top queries', ['Query', 'Searches', 'No results', 'Opened', 'Results opened (rank, page, times)'], stats.topQueries.map((q) => [q.query, q.searches, q.zero, q.clicks, opened(q)]))}
${table('Queries with no results', ['Query', 'Searches'], stats.zeroResultQueries.map((q) => [q.query, q.searches]))}
${table('Corrected queries', ['Query', 'Shown results for', 'Searches'], stats.correctedQueries.map((q) => [q.query, q.suggestion, q.searches]))}
${table('Asked by AI assistants (MCP)', ['Query', 'Searches', 'No results'], stats.assistants.topQueries.map((q) => [q.query, q.searches, q.zero]))}
</body></html>
`;
}
