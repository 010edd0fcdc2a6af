import { Buffer } from 'node:buffer';
import { lstatSync, readFileSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { resolveConfig } from '../options/config.js';
import type { ResolvedConfig, SearchOptions } from '../options/options.js';
import { collectDocuments, type SourceFile } from './collect.js';
import { parseDocument, type IndexDocument, type IndexWarning, type ParsedFile } from './document.js';
import { findFrontmatterRules, loadFrontmatterChecks, type FrontmatterChecks, type FrontmatterRuleModules } from './frontmatter-rules.js';

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

/** One file to read: the file, its real path (absent when it did not resolve) and the path it duplicates, if any. */
export interface FileTask {
  file: SourceFile;
  real?: string;
  /** The path this same file is indexed by instead (reached through a symbolic link). */
  duplicateOf?: string;
  /** The folder the file's real path leaves (it is reached through a symbolic link), when that is not allowed. */
  outside?: string;
}

/** What reading one file gave: a reason to skip it, or its parsed row. Plain data, so it can cross threads. */
export type FileResult = { skip: string } | { parsed: ParsedFile };

/**
 * Turns tasks into results, in the tasks' order: in this thread by default; the CLI reads in parse workers. The tasks
 * are worked out as they are taken, so a reader takes them only as it needs them.
 */
export type FileReader = (tasks: Iterable<FileTask>, config: ResolvedConfig, rules: FrontmatterRuleModules) => AsyncIterable<FileResult> | Iterable<FileResult>;

/**
 * Reads every source file and yields its index row as soon as it is parsed, so a push can stream 100,000 documents
 * without holding them. Bad content never stops the run: each problem becomes a warning in `stats` that names the file
 * (and line, when known), and the document is indexed as well as it can be.
 */
export async function* readDocuments(
  options: SearchOptions | ResolvedConfig,
  stats: BuildStats,
  { cwd, onProgress, reader = readInThisThread }: BuildOptions & { reader?: FileReader } = {},
): AsyncGenerator<IndexDocument> {
  const config = resolveConfig(options);
  const files = await collectDocuments(config, { cwd });
  const rules = findFrontmatterRules(config, resolve(cwd ?? process.cwd()), stats.warnings);
  stats.files = files.length;
  /** Tasks handed to the reader whose results have not come back yet (a few batches at most). */
  const handed: FileTask[] = [];
  const inside = config.followLinksOutside ? undefined : insideCheck(resolve(cwd ?? process.cwd()));
  const tasks = (function* () {
    for (const task of fileTasks(files, inside)) {
      handed.push(task);
      yield task;
    }
  })();
  const urls = new Map<string, string>();
  let i = 0;
  for await (const result of reader(tasks, config, rules)) {
    const { file } = handed.shift()!;
    onProgress?.(++i, files.length);
    if ('skip' in result) {
      stats.warnings.push({ file: file.path, message: `${result.skip}; skipped` });
      continue;
    }
    const { parsed } = result;
    stats.warnings.push(...parsed.warnings);
    if (parsed.status === 'skipped') {
      if (parsed.reason === 'draft') stats.skipped.draft++;
      else if (parsed.reason === 'search-false') stats.skipped.searchFalse++;
      continue;
    }
    // Two pages at one URL cannot both be results (a click opens one page): the first file read keeps the URL, and
    // the push never sees the second (it would collide with the first's rows on SQLite and D1 alike).
    const earlier = urls.get(parsed.document.url);
    if (earlier) {
      stats.warnings.push({ file: file.path, message: duplicateUrlMessage(parsed.document.url, earlier) });
      continue;
    }
    urls.set(parsed.document.url, file.path);
    if (parsed.truncated) stats.truncated++;
    yield parsed.document;
  }
}

/** The warning for a page whose URL an earlier page already has: what happened and the two ways out. */
export function duplicateUrlMessage(url: string, earlier: string): string {
  return `has the same URL ${url} as ${earlier}; skipped (give one of them another "slug" in its frontmatter, or rename it)`;
}

async function* readInThisThread(tasks: Iterable<FileTask>, config: ResolvedConfig, rules: FrontmatterRuleModules): AsyncIterable<FileResult> {
  const checks = await loadFrontmatterChecks(rules);
  for (const task of tasks) yield parseSourceFile(loadSourceFile(task), config, checks);
}

/** A file's bytes as read, or why it is skipped. Plain data, so it can cross threads. */
export type LoadedFile = { skip: string } | { file: SourceFile; bytes: Uint8Array };

/** Reads one file (the part of {@link readSourceFile} that is I/O), or says why it is skipped. */
export function loadSourceFile({ file, real, duplicateOf, outside }: FileTask): LoadedFile {
  if (duplicateOf) return { skip: `is the same file as ${duplicateOf} (through a symbolic link)` };
  if (outside) return { skip: outsideMessage(real!, outside) };
  try {
    // A path that did not resolve is tried again, so its error reaches the warning.
    const path = real ?? realpathSync.native(file.path);
    const { size } = statSync(path);
    if (size > MAX_FILE_BYTES) return { skip: `is ${(size / 2 ** 20).toFixed(0)} MB, over the ${MAX_FILE_BYTES / 2 ** 20} MB limit for one page` };
    // Synchronous reads: markdown files are small, and awaiting each one left the CPU idle a fifth of the time.
    return { file, bytes: readFileSync(path) };
  } catch (e) {
    const target = (e as { code?: string }).code === 'ENOENT' ? danglingTarget(file.path) : undefined;
    return { skip: target === undefined ? `could not be read (${(e as Error).message})` : `is a symbolic link to ${target}, which does not exist` };
  }
}

/** Decodes and parses a file as read, or says why it is skipped. */
export function parseSourceFile(loaded: LoadedFile, config: ResolvedConfig, checks: FrontmatterChecks = {}): FileResult {
  if ('skip' in loaded) return loaded;
  const raw = Buffer.from(loaded.bytes.buffer, loaded.bytes.byteOffset, loaded.bytes.byteLength).toString('utf8');
  if (raw.slice(0, 8192).includes('\u0000')) return { skip: 'is not text (it contains NUL bytes)' };
  return { parsed: parseDocument(loaded.file, raw, config, checks) };
}

/** Where a symbolic link points, when `path` is one. */
function danglingTarget(path: string): string | undefined {
  try {
    return lstatSync(path).isSymbolicLink() ? readlinkSync(path) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Each file's real path, and which path indexes it: a directory linked into itself (or twice into the tree) reaches
 * the same file by several paths. The path without links wins; otherwise the first. Worked out file by file as the
 * reader asks for them, so parsing starts at once rather than after resolving every path (which takes a while on a large site):
 * whether a file is a duplicate depends only on the paths listed and the files before it.
 */
function* fileTasks(files: SourceFile[], inside?: (file: SourceFile, real: string) => string | undefined): Generator<FileTask> {
  const listed = new Set(files.map((file) => file.path));
  /** Real paths that no listed path spells, and the first link that reached each. */
  const firstLink = new Map<string, string>();
  for (const file of files) {
    let real: string;
    try {
      // realpathSync.native: one libc call, where the JavaScript version lstat()s every folder on the way (a tenth
      // of the time of a 10,000-page build).
      real = realpathSync.native(file.path);
    } catch {
      yield { file };
      continue;
    }
    // Most paths are their real path: no need to hold both.
    if (real === file.path) {
      yield { file, real: file.path };
      continue;
    }
    const outside = inside?.(file, real);
    if (outside) {
      yield { file, real, outside };
      continue;
    }
    const keeper = listed.has(real) ? real : firstLink.get(real);
    if (keeper === undefined) firstLink.set(real, file.path);
    yield keeper === undefined || keeper === file.path ? { file, real } : { file, real, duplicateOf: keeper };
  }
}

/**
 * For each file reached through a symbolic link: the folder its real path leaves, or undefined when it stays inside.
 * That folder is the source's `dir` (as it really is, links resolved), or for a `files` source the project folder
 * `cwd`. Indexing often runs in CI on contributors' pull requests, where a link to `/etc/passwd`, `../secret/.env` or
 * `.git/config` would otherwise be published as a searchable page.
 */
function insideCheck(cwd: string): (file: SourceFile, real: string) => string | undefined {
  const roots = new Map<SourceFile['source'], string>();
  const rootOf = (file: SourceFile) => {
    let root = roots.get(file.source);
    if (root === undefined) {
      const folder = file.source.dir === undefined ? cwd : resolve(cwd, file.source.dir);
      root = realpathOr(folder);
      roots.set(file.source, root);
    }
    return root;
  };
  return (file, real) => {
    const root = rootOf(file);
    return real === root || real.startsWith(root.endsWith(sep) ? root : root + sep) ? undefined : root;
  };
}

function realpathOr(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path;
  }
}

/** The warning for a file whose real path leaves its folder: where it leads, and the option that allows it. */
function outsideMessage(real: string, root: string): string {
  return `is a symbolic link to ${real}, outside ${root} (set followLinksOutside: true in your search options to index files linked from elsewhere)`;
}

/** Reads every source file into index rows (all in memory; the CLI streams with {@link readDocuments} instead). */
export async function buildIndex(options: SearchOptions | ResolvedConfig, build: BuildOptions = {}): Promise<BuildResult> {
  const stats = newBuildStats();
  const documents: IndexDocument[] = [];
  for await (const document of readDocuments(options, stats, build)) documents.push(document);
  return { documents, ...stats };
}
