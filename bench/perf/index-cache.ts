/**
 * The latency indexes, kept between runs (bench/results/cache, gitignored): building 100,000 documents takes a minute
 * or more of a 2-core machine, and the index only changes when the code that writes it does. Each file is named by a
 * hash of the sources that decide its content: every file under src/ but the query-time ones (the search statement,
 * the search itself, HTTP, the UI, the CLI), and the corpus generator. `BENCH_FRESH=1` rebuilds anyway.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { here } from './measure.js';

const root = join(here, '..');
const cache = join(here, 'results', 'cache');
/** Sources read only when searching: editing them leaves the index as it was. */
const QUERY_TIME = ['src/ranking/', 'src/db/sqlite-pool.ts', 'src/db/index-state.ts', 'src/search/', 'src/http/', 'src/ui/', 'src/cli/'];

function sourcesHash(): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      const rel = relative(root, path) + (entry.isDirectory() ? '/' : '');
      if (QUERY_TIME.some((q) => rel === q)) continue;
      if (entry.isDirectory()) walk(path);
      else if (/\.ts$/.test(entry.name)) hash.update(rel).update('\0').update(readFileSync(path));
    }
  };
  walk(join(root, 'src'));
  for (const file of ['bench/corpus.ts', 'bench/labeled-queries.ts']) hash.update(file).update(readFileSync(join(root, file)));
  return hash.digest('hex').slice(0, 12);
}

/**
 * The path of the index of `n` documents for the current sources, written by `build(path)` when it is not cached yet
 * (into a temporary name first, so an interrupted build is never taken for a finished one).
 */
export async function cachedIndex(n: number, build: (path: string) => Promise<void>, name = 'latency'): Promise<{ path: string; cached: boolean }> {
  mkdirSync(cache, { recursive: true });
  const path = join(cache, `${name}-${n}-${sourcesHash()}.db`);
  if (existsSync(path) && process.env.BENCH_FRESH !== '1') return { path, cached: true };
  // Older builds of this size are stale: one index per name and size is kept.
  for (const old of readdirSync(cache)) if (old.startsWith(`${name}-${n}-`)) rmSync(join(cache, old), { force: true });
  const building = `${path}.building`;
  await build(building);
  renameSync(building, path);
  return { path, cached: false };
}
