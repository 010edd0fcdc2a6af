/**
 * Peak memory of a push with nothing to change against the first push, on many tiny files (attack round 3 found a
 * no-change push over 1,000,000 files peaking at 1.43 GB against 0.70 GB for the first). Each push is the CLI in a
 * fresh process (bench/child.mjs `cli-index`), whose peak RSS (`process.resourceUsage().maxRSS`) covers its worker
 * threads. Rounds alternate first and no-change pushes so a busy minute of the machine tilts neither.
 *
 * Written by `npm run bench` with the rest of docs/benchmarks.md, or alone (after `npm run build`), replacing only its
 * section: `npx tsx bench/push-memory.ts [--files 150000] [--rounds 3]`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const CHILD = new URL('./child.mjs', import.meta.url).pathname;
const WORDS = 'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango'.split(' ');
const HEADING = '### Memory of a no-change push';

export interface PushMemoryFigures {
  files: number;
  /** Peak RSS (MB) of each round's first push and no-change push. */
  first: number[];
  noChange: number[];
}

/** `count` one-paragraph pages, 1,000 to a folder, and the options that index them. */
function writeTinySite(dir: string, count: number): string {
  for (let i = 0; i < count; i++) {
    const folder = join(dir, 'content', `d${Math.floor(i / 1000)}`);
    if (i % 1000 === 0) mkdirSync(folder, { recursive: true });
    const word = (k: number) => `${WORDS[(i * 7 + k * 13) % WORDS.length]}${i % 997}`;
    writeFileSync(join(folder, `p${i}.md`), `---\ntitle: Page ${i} ${word(1)}\n---\n\n${word(2)} ${word(3)} ${word(4)} page number ${i}.\n`);
  }
  const config = join(dir, 'search.config.json');
  writeFileSync(config, JSON.stringify({ database: 'push-memory', sources: [{ dir: 'content', url: '/:slug/', type: 'docs' }] }));
  return config;
}

/** Peak RSS (MB) of one `site-search index` into `db`, in a fresh process. */
function pushPeak(config: string, db: string): number {
  const out = execFileSync(process.execPath, [CHILD, 'cli-index', config, db], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  return (JSON.parse(out.trim().split('\n').at(-1)!) as { rssMB: number }).rssMB;
}

export function measurePushMemory(files = 150_000, rounds = 3): PushMemoryFigures {
  const dir = mkdtempSync(join(tmpdir(), 'site-search-push-memory-'));
  try {
    const config = writeTinySite(dir, files);
    const db = join(dir, 'search.db');
    const figures: PushMemoryFigures = { files, first: [], noChange: [] };
    for (let round = 0; round < rounds; round++) {
      rmSync(db, { force: true });
      figures.first.push(pushPeak(config, db));
      figures.noChange.push(pushPeak(config, db));
    }
    return figures;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
const cell = (xs: number[]) => `${median(xs)} MB (${xs.join(', ')})`;

/** The "Memory of a no-change push" section of docs/benchmarks.md. */
export function pushMemorySection(f: PushMemoryFigures): string {
  return `${HEADING}

A push with nothing to change holds no more than a first push: it never holds the stored pages (each 64 documents look
their stored hashes up by URL, it keeps the row ids it met, 8 bytes a page, and reads the stored pages 5,000 at a time
only when the counts show some page is gone). One-paragraph files, each push the CLI in a fresh process, peak RSS
(\`process.resourceUsage().maxRSS\`, worker threads included), first and no-change pushes alternating; the median, then
each round. \`test/indexer/state-reads.test.ts\` checks the structure (no answer over 64 rows in a no-change push, none
over 5,000 when a page is gone), not the memory.

**Command:** \`npx tsx bench/push-memory.ts --files ${f.files} --rounds ${f.first.length}\` (after \`npm run build\`; also part of \`npm run
bench\`). **Date:** ${new Date().toISOString().slice(0, 10)}.

| ${f.files.toLocaleString('en-US')} files | first push | no-change push |
|---|---|---|
| this run | ${cell(f.first)} | ${cell(f.noChange)} |`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { files: { type: 'string', default: '150000' }, rounds: { type: 'string', default: '3' } } });
  const section = pushMemorySection(measurePushMemory(Number(values.files), Number(values.rounds)));
  const pageFile = new URL('../docs/benchmarks.md', import.meta.url).pathname;
  const doc = readFileSync(pageFile, 'utf8');
  const start = doc.indexOf(HEADING);
  // Before the first run that writes it, the section goes before the D1 push one.
  const at = start !== -1 ? start : doc.indexOf('## D1 pushes in an edit loop');
  const next = start !== -1 ? doc.indexOf('\n## ', start + 1) : at - 1;
  writeFileSync(pageFile, `${doc.slice(0, at)}${section}\n${next === -1 ? '' : doc.slice(next)}`);
  console.error('[bench] wrote the no-change push memory section of docs/benchmarks.md');
}
