import { readFile } from 'node:fs/promises';
import { resolveConfig } from '../config.js';
import type { ResolvedConfig, SearchOptions } from '../options.js';
import { collectDocuments } from './collect.js';
import { parseDocument, type IndexDocument, type IndexWarning } from './document.js';

/** The outcome of {@link buildIndex}: the rows to push and what happened on the way. */
export interface BuildResult {
  documents: IndexDocument[];
  /** Files read. */
  files: number;
  /** Files left out on purpose: `draft: true` or `search: false`. */
  skipped: { draft: number; searchFalse: number };
  /** Documents whose body was cut at `maxContentLength`. */
  truncated: number;
  warnings: IndexWarning[];
}

export interface BuildOptions {
  /** Directory the source paths are relative to (the config file's directory). Default: the working directory. */
  cwd?: string;
  /** Called after each file, e.g. for a progress line. */
  onProgress?: (done: number, total: number) => void;
}

/**
 * Reads every source file and builds the index rows. Bad content never stops the run: each problem becomes a warning
 * that names the file (and line, when known), and the document is indexed as well as it can be.
 */
export async function buildIndex(
  options: SearchOptions | ResolvedConfig,
  { cwd, onProgress }: BuildOptions = {},
): Promise<BuildResult> {
  const config = resolveConfig(options);
  const files = await collectDocuments(config, { cwd });
  const result: BuildResult = { documents: [], files: files.length, skipped: { draft: 0, searchFalse: 0 }, truncated: 0, warnings: [] };
  const urls = new Map<string, string>();

  for (const [i, file] of files.entries()) {
    let raw: string;
    try {
      raw = await readFile(file.path, 'utf8');
    } catch (e) {
      result.warnings.push({ file: file.path, message: `could not be read (${(e as Error).message}); skipped` });
      continue;
    }
    const parsed = parseDocument(file, raw, config);
    result.warnings.push(...parsed.warnings);
    if (parsed.status === 'skipped') {
      if (parsed.reason === 'draft') result.skipped.draft++;
      else result.skipped.searchFalse++;
    } else {
      const earlier = urls.get(parsed.document.url);
      if (earlier) result.warnings.push({ file: file.path, message: `has the same URL ${parsed.document.url} as ${earlier}` });
      urls.set(parsed.document.url, file.path);
      result.documents.push(parsed.document);
      if (parsed.truncated) result.truncated++;
    }
    onProgress?.(i + 1, files.length);
  }
  return result;
}
