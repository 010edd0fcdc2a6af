/**
 * D1 pushes in an edit loop: `site-search index --d1 local` on the 1,831 real astro-docs pages, as a developer runs it
 * after saving a page, through the real wrangler. Time is the whole command: reading and parsing every file, reading
 * what the local D1 holds, and writing what changed. Beside it, one bare `wrangler d1 execute --local --command
 * "SELECT 1"`: what each wrangler call costs before doing anything (it starts Node, wrangler and a local workerd).
 * Written by `npm run bench` with the rest of docs/benchmarks.md, or alone by `npm run bench:d1-push` (a few
 * minutes), which replaces only its section.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { corpusOptions } from './labeled-queries.js';
import { writeCorpusFiles } from './corpus.js';
import { spread, work, type Spread } from './perf/measure.js';

const CLI = new URL('../dist/cli.js', import.meta.url).pathname;
const WRANGLER = new URL('../node_modules/wrangler/bin/wrangler.js', import.meta.url).pathname;
const env = { ...process.env, CI: 'true', WRANGLER_SEND_METRICS: 'false' };
/** Rounds of (no change, one edit, bare wrangler call), taken in turn so a slow minute of the machine tilts none. */
const ROUNDS = 5;

export interface D1PushFigures {
  pages: number;
  rounds: number;
  first: { ms: number; summary: string };
  noChange: Spread;
  oneEdit: Spread;
  wranglerCall: Spread;
  editSummary: string;
  /** The machine's 1-minute load average before and after (other work on its cores slows every wrangler start). */
  load: [number, number];
}

const timed = (file: string, args: string[], cwd: string): { ms: number; out: string } => {
  const started = performance.now();
  const out = execFileSync(process.execPath, [file, ...args], { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  return { ms: performance.now() - started, out: out.trim().replace(/ → .*/, '').replace(/^\[site-search\] /, '') };
};

export async function d1Pushes(pages = 1831): Promise<D1PushFigures> {
  const dir = join(work, 'd1-push');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  await writeCorpusFiles(dir, pages);
  // A small site has the first pages of the corpus: the languages it has folders for.
  const langs = [...new Set(corpusOptions().sources.map((s) => s.type))].filter((lang) => existsSync(join(dir, lang)));
  writeFileSync(join(dir, 'search.config.json'), JSON.stringify({ database: 'bench-search', sources: langs.map((l) => ({ dir: l, type: l, url: `/${l}/:slug` })) }));
  writeFileSync(
    join(dir, 'wrangler.toml'),
    'name = "bench"\ncompatibility_date = "2026-07-01"\n\n[[d1_databases]]\nbinding = "SEARCH_DB"\ndatabase_name = "bench-search"\ndatabase_id = "00000000-0000-4000-8000-00000000b1d1"\n',
  );
  const push = () => timed(CLI, ['index', '--d1', 'local'], dir);
  const loadBefore = loadavg()[0]!;
  const first = push();
  const page = [join(dir, 'en', 'guides', 'imports.mdx'), ...markdownFiles(dir)].find((file) => existsSync(file))!;
  const original = readFileSync(page, 'utf8');
  const noChange: number[] = [];
  const oneEdit: number[] = [];
  const wranglerCall: number[] = [];
  let editSummary = '';
  for (let round = 0; round < ROUNDS; round++) {
    noChange.push(push().ms);
    // Each round's edit is new (a paragraph naming the round), near the top of the page.
    writeFileSync(page, original.replace(/^(---\n[\s\S]*?\n---\n)/, `$1\nEdited in round ${round}: a paragraph about penguin migrations.\n`));
    const edit = push();
    oneEdit.push(edit.ms);
    editSummary = edit.out;
    wranglerCall.push(timed(WRANGLER, ['d1', 'execute', 'bench-search', '--local', '--command', 'SELECT 1', '--json'], dir).ms);
  }
  writeFileSync(page, original);
  return { pages, rounds: ROUNDS, first: { ms: first.ms, summary: first.out }, noChange: spread(noChange), oneEdit: spread(oneEdit), wranglerCall: spread(wranglerCall), editSummary, load: [loadBefore, loadavg()[0]!] };
}

/** The Markdown files under `dir`, for a site too small to have the usual page to edit. */
function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => /\.mdx?$/.test(f)).sort().map((f) => join(dir, f));
}

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const range = (x: Spread) => `${s(x.median)} (${s(x.min)}–${s(x.max)})`;

/** Site sizes the section measures: a small docs site and the whole corpus. */
export const D1_PUSH_SIZES = [20, 1831];

/** The "D1 pushes in an edit loop" section of docs/benchmarks.md, one table per site size (the whole corpus last). */
export function d1PushSection(all: D1PushFigures[]): string {
  const f = all.at(-1)!;
  const times = (x: Spread) => (x.median / f.wranglerCall.median).toFixed(1);
  const table = (g: D1PushFigures) => `| ${g.pages.toLocaleString('en')} pages | ${s(g.first.ms)} | ${range(g.noChange)} | ${range(g.oneEdit)} | ${range(g.wranglerCall)} |`;
  return `## D1 pushes in an edit loop

\`site-search index --d1 local\` on the first ${all.map((g) => g.pages.toLocaleString('en')).join(' and the ')} astro-docs pages in a project with a
\`wrangler.toml\`, through the real wrangler, as a developer runs it after saving a page; the whole command, medians of
${f.rounds} rounds taken in turn (min–max). A push
reads the database's schema version, page hashes and words in one wrangler call, while its own process reads and
parses the files, and writes only when something changed, in a second call: a push with nothing to change starts
wrangler once, a one-page edit twice (\`test/indexer/d1-concurrent.test.ts\` counts them). Beside them, a bare
wrangler call, what each call costs before doing anything (Node, wrangler and a local workerd starting): the push with
nothing to change took ${times(f.noChange)} times a bare call, the edit ${times(f.oneEdit)} times (on the whole corpus).

**Command:** \`npm run bench:d1-push\` (after \`npm run build\`; also part of \`npm run bench\`). **Date:** ${new Date().toISOString().slice(0, 10)}, the
machine's load average ${all[0]!.load[0].toFixed(1)} before and ${f.load[1].toFixed(1)} after, on ${cpus().length} cores${Math.max(...all.flatMap((g) => g.load)) > cpus().length ? ' (other work slowed every process)' : ''}.

| site | first push (the whole site) | nothing changed | one page edited | a bare \`wrangler d1 execute --local --command "SELECT 1"\` |
|---|---|---|---|---|
${all.map(table).join('\n')}

On the whole corpus, the first push: "${f.first.summary}"; an edit: "${f.editSummary}".`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const pageFile = new URL('../docs/benchmarks.md', import.meta.url).pathname;
  const figures: D1PushFigures[] = [];
  for (const size of D1_PUSH_SIZES) figures.push(await d1Pushes(size));
  const section = d1PushSection(figures);
  const doc = readFileSync(pageFile, 'utf8');
  const start = doc.indexOf('## D1 pushes in an edit loop');
  // Before the first run of the whole bench that writes it, the section goes after the re-indexing one.
  const at = start !== -1 ? start : doc.indexOf('## Worker bundle');
  const next = start !== -1 ? doc.indexOf('\n## ', start + 1) : at - 1;
  writeFileSync(pageFile, doc.slice(0, at) + section + '\n' + (next === -1 ? '' : doc.slice(next)));
  console.error('[bench] wrote the D1 push section of docs/benchmarks.md');
}
