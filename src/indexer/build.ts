import { readFileSync, realpathSync, statSync } from 'node:fs';
import { resolveConfig } from '../config.js';
import type { ResolvedConfig, SearchOptions } from '../options.js';
import { collectDocuments } from './collect.js';
import { parseDocument, type IndexDocument, type IndexWarning } from './document.js';

/** What happened while reading the files (filled in as documents are read). */
export interface BuildStats {
  /** Files read. */
  files: number;
  /** Files left out on purpose: `draft: true` or `search: false`. */
  skipped: { draft: number; searchFalse: number };
  /** Documents whose body was cut at `maxContentLength`. */
  truncated: number;
  warnings: IndexWarning[];
}

/** The outcome of {@link buildIndex}: the rows to push and what happened on the way. */
export interface BuildResult extends BuildStats {
  documents: IndexDocument[];
}

export interface BuildOptions {
  /** Directory the source paths are relative to (the config file's directory). Default: the working directory. */
  cwd?: string;
  /** Called after each file, e.g. for a progress line. */
  onProgress?: (done: number, total: number) => void;
}

/** No page is this large: a bigger file is a mistake (a log, a dump) and would cost its size many times in memory. */
const MAX_FILE_BYTES = 10 * 1024 * 1024;

/** Empty statistics, for {@link readDocuments} to fill. */
export function newBuildStats(): BuildStats {
  return { files: 0, skipped: { draft: 0, searchFalse: 0 }, truncated: 0, warnings: [] };
}

/**
 * Reads every source file and yields its index row as soon as it is parsed, so a push can stream 100,000 documents
 * without holding them. Bad content never stops the run: each problem becomes a warning in `stats` that names the file
 * (and line, when known), and the document is indexed as well as it can be.
 */
export async function* readDocuments(
  options: SearchOptions | ResolvedConfig,
  stats: BuildStats,
  { cwd, onProgress }: BuildOptions = {},
): AsyncGenerator<IndexDocument> {
  const config = resolveConfig(options);
  const files = await collectDocuments(config, { cwd });
  stats.files = files.length;
  const urls = new Map<string, string>();
  const { kept: canonical, realOf } = canonicalPaths(files.map((f) => f.path));
  const skip = (path: string, message: string) => stats.warnings.push({ file: path, message: `${message}; skipped` });
  for (const [i, file] of files.entries()) {
    onProgress?.(i + 1, files.length);
    let raw: string;
    try {
      const real = realOf(file.path);
      const kept = canonical.get(real);
      if (kept !== file.path) {
        skip(file.path, `is the same file as ${kept} (through a symbolic link)`);
        continue;
      }
      const { size } = statSync(real);
      if (size > MAX_FILE_BYTES) {
        skip(file.path, `is ${(size / 2 ** 20).toFixed(0)} MB, over the ${MAX_FILE_BYTES / 2 ** 20} MB limit for one page`);
        continue;
      }
      // Synchronous reads: markdown files are small, and awaiting each one left the CPU idle a fifth of the time.
      raw = readFileSync(real, 'utf8');
    } catch (e) {
      skip(file.path, `could not be read (${(e as Error).message})`);
      continue;
    }
    if (raw.slice(0, 8192).includes('\u0000')) {
      skip(file.path, 'is not text (it contains NUL bytes)');
      continue;
    }
    const parsed = parseDocument(file, raw, config);
    stats.warnings.push(...parsed.warnings);
    if (parsed.status === 'skipped') {
      if (parsed.reason === 'draft') stats.skipped.draft++;
      else stats.skipped.searchFalse++;
      continue;
    }
    const earlier = urls.get(parsed.document.url);
    if (earlier) stats.warnings.push({ file: file.path, message: `has the same URL ${parsed.document.url} as ${earlier}` });
    urls.set(parsed.document.url, file.path);
    if (parsed.truncated) stats.truncated++;
    yield parsed.document;
  }
}

/**
 * For each real file, the one path to index it by: a directory linked into itself (or twice into the tree) reaches
 * the same file by several paths. The path without links wins; otherwise the first.
 */
function canonicalPaths(paths: string[]): { kept: Map<string, string>; realOf: (path: string) => string } {
  // realpathSync.native: one libc call, where the JavaScript version lstat()s every folder on the way (a tenth of
  // the time of a 10,000-page build). Only the paths that differ from their real path are remembered.
  const kept = new Map<string, string>();
  const linked = new Map<string, string>();
  const unresolved = new Set<string>();
  for (const path of paths) {
    let real: string;
    try {
      real = realpathSync.native(path);
    } catch {
      unresolved.add(path);
      continue;
    }
    if (real !== path) linked.set(path, real);
    if (!kept.has(real) || path === real) kept.set(real, path);
  }
  // A path that did not resolve is tried again, so its error reaches the warning.
  const realOf = (path: string) => (unresolved.has(path) ? realpathSync.native(path) : (linked.get(path) ?? path));
  return { kept, realOf };
}

/** Reads every source file into index rows (all in memory; the CLI streams with {@link readDocuments} instead). */
export async function buildIndex(options: SearchOptions | ResolvedConfig, build: BuildOptions = {}): Promise<BuildResult> {
  const stats = newBuildStats();
  const documents: IndexDocument[] = [];
  for await (const document of readDocuments(options, stats, build)) documents.push(document);
  return { documents, ...stats };
}
