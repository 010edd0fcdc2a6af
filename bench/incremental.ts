/**
 * Re-indexing after an edit: the CLI on the benchmark's files, a full push beside the incremental one after a one-page
 * edit (and after no edit at all). Time is the whole command, Markdown parsing included (every file is still read to
 * find what changed); rows written are what the push inserted and deleted, which is what D1 bills. Part of
 * `npm run bench`.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const CLI = new URL('../dist/cli.js', import.meta.url).pathname;

export interface Reindex {
  pages: number;
  full: { ms: number; rows: number };
  oneEdit: { ms: number; rows: number; summary: string };
  noChange: { ms: number; rows: number };
}

function index(config: string, db: string, ...flags: string[]): { ms: number; rows: number; summary: string } {
  const started = performance.now();
  const out = execFileSync(process.execPath, [CLI, 'index', '--config', config, '--sqlite', db, ...flags], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const ms = performance.now() - started;
  const rows = Number(/([\d,]+) rows written/.exec(out)?.[1]?.replace(/,/g, '') ?? NaN);
  return { ms, rows, summary: out.trim().replace(/ → .*/, '') };
}

/** `dir` holds the benchmark's Markdown files and their search.config.json (see perf.ts `indexing`). */
export function reindexAfterEdit(dir: string, db: string): Reindex {
  const config = join(dir, 'search.config.json');
  rmSync(db, { force: true });
  index(config, db); // the index as the last deploy left it
  const full = index(config, db, '--full');
  const page = (readdirSync(dir, { recursive: true, encoding: 'utf8' }) as string[]).filter((f) => /\.mdx?$/.test(f)).sort()[0]!;
  const path = join(dir, page);
  const original = readFileSync(path, 'utf8');
  // An edit near the top of the page (inside the part of the body that is indexed).
  writeFileSync(path, original.replace(/^(---\n[\s\S]*?\n---\n)/, '$1\nEdited: a new first paragraph about penguin migrations.\n'));
  try {
    const oneEdit = index(config, db);
    const noChange = index(config, db);
    return { pages: Number(/^\[site-search\] (\d+) pages/.exec(oneEdit.summary)?.[1]), full, oneEdit, noChange };
  } finally {
    writeFileSync(path, original);
  }
}
