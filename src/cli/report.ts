import { relative, sep } from 'node:path';
import type { BuildStats } from '../indexer/build.js';
import type { PushCounts } from '../indexer/changes.js';
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

/** `file:line: message`, with the path relative to `cwd`; one line, whatever the file's name or content holds. */
export function formatWarning(w: IndexWarning, cwd: string): string {
  // A message may name another file (the page a duplicate URL belongs to): relative too.
  const message = w.message.split(`${cwd}${sep}`).join('');
  return printable(`${relative(cwd, w.file) || w.file}${w.line ? `:${w.line}` : ''}: ${message}`);
}

/**
 * Bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069): they reorder the text after them on screen, so
 * a line can read otherwise than it is (a file name, a URL or a warning shown backwards, "Trojan Source").
 */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text from content or file names, safe to print to a terminal: control characters, C0 and C1 (escape sequences that
 * recolour, retitle or clear the terminal, `U+009B` being a one-character escape on some, line breaks that forge
 * lines), are shown as `\xNN`, and bidirectional controls as `\uNNNN`, instead of being sent.
 */
export function printable(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
      .replace(BIDI_CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16)}`)
  );
}

/**
 * A value as JSON for a terminal (`query --json`): JSON.stringify already escapes C0 controls, and here DEL, C1 and
 * bidirectional controls are escaped too (`\u009b`, `\u202e`), which they may be anywhere in a JSON string, so the
 * output parses back to the same value and never reaches the terminal raw.
 */
export function terminalJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * The summary printed after an index run: what the push wrote, where, how long it took, then what the files held.
 *
 * @example [site-search] 12 pages: 1 added, 1 changed, 1 removed, 9 unchanged; 37 rows written → .site-search/search.db in 0.21 s (0 drafts skipped, 3 bodies truncated, 0 warnings)
 */
export function summary(build: BuildStats, push: { counts: PushCounts; destination: string; dryRun: boolean }, ms: number): string {
  const { counts } = push;
  const changes = counts.full
    ? `rewritten in full${counts.reason ? ` (${counts.reason})` : ''}`
    : `${counts.added} added, ${counts.changed} changed, ${counts.removed} removed, ${counts.unchanged} unchanged`;
  const files = [
    `${build.skipped.draft} drafts skipped`,
    build.skipped.searchFalse ? `${build.skipped.searchFalse} with search: false skipped` : '',
    `${build.truncated} bodies truncated`,
    `${build.warnings.length} warnings`,
  ].filter(Boolean);
  const written = `${counts.rowsWritten.toLocaleString('en-US')} rows ${push.dryRun ? 'would be written (dry run: nothing written)' : 'written'}`;
  return `[site-search] ${counts.pages} pages: ${changes}; ${written} → ${push.destination} in ${(ms / 1000).toFixed(2)} s (${files.join(', ')})`;
}
