/**
 * Writes a benchmark run's sections into docs/benchmarks.md without losing the sections other commands measure: the
 * page is a reference with one section per figure, and only some of them come from `npm run bench` (the others from
 * `npm run bench:mcp`, `bench:typo`, a `BENCH_NO_TYPE=1` latency run…). Sections are the page's `## ` headings.
 */

/** The text before the first `## ` heading, and each `## ` section with its heading, in order. */
function sectionsOf(page: string): { head: string; sections: { title: string; text: string }[] } {
  const parts = page.split(/^(?=## )/m);
  const head = parts[0]!.startsWith('## ') ? '' : parts.shift()!;
  return { head, sections: parts.map((text) => ({ title: text.slice(3, text.indexOf('\n')).trim(), text })) };
}

/**
 * `page` with its introduction and each section `run` has replaced by `run`'s; the page's other sections kept where
 * they are, and a section new to the page added at the end.
 */
export function spliceSections(page: string, run: string): string {
  const old = sectionsOf(page);
  const fresh = sectionsOf(run);
  const byTitle = new Map(fresh.sections.map((s) => [s.title, s.text]));
  const kept = old.sections.map((s) => {
    const text = byTitle.get(s.title) ?? s.text;
    byTitle.delete(s.title);
    return text;
  });
  const joined = [fresh.head, ...kept, ...byTitle.values()].map((t) => t.replace(/\n+$/, '\n'));
  return joined.join('\n');
}
