import { relative } from 'node:path';
import type { BuildStats } from '../indexer/build.js';
import type { IndexWarning } from '../indexer/document.js';

/** A progress line that rewrites itself on a terminal and stays silent in logs and CI. */
export function progress(stream: NodeJS.WriteStream = process.stderr): { update(done: number, total: number): void; done(): void } {
  if (!stream.isTTY) return { update() {}, done() {} };
  let last = 0;
  return {
    update(done, total) {
      const now = Date.now();
      if (done !== total && now - last < 80) return;
      last = now;
      stream.write(`\r[site-search] indexing ${done}/${total} files…`);
    },
    done: () => stream.write('\r\x1b[K'),
  };
}

/** `file:line: message`, with the path relative to `cwd`. */
export function formatWarning(w: IndexWarning, cwd: string): string {
  return `${relative(cwd, w.file) || w.file}${w.line ? `:${w.line}` : ''}: ${w.message}`;
}

/** The summary printed after an index run. */
export function summary(build: BuildStats & { documents: number }, destination: string, ms: number): string {
  const parts = [
    `${build.documents} documents`,
    `${build.skipped.draft} drafts skipped`,
    build.skipped.searchFalse ? `${build.skipped.searchFalse} with search: false skipped` : '',
    `${build.truncated} bodies truncated`,
    `${build.warnings.length} warnings`,
  ].filter(Boolean);
  return `[site-search] indexed ${parts.join(', ')} → ${destination} in ${(ms / 1000).toFixed(2)} s`;
}
