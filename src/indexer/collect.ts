import { existsSync, opendirSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { glob } from 'tinyglobby';
import { SiteSearchError } from '../errors.js';
import { resolveConfig } from '../options/config.js';
import type { ResolvedConfig, ResolvedSource, SearchOptions } from '../options/options.js';

/** A content file found for a source. */
export interface SourceFile {
  /** Absolute path. */
  path: string;
  /** Path under the source `dir`, with forward slashes (for `files` sources: the path as listed). */
  relativePath: string;
  source: ResolvedSource;
}

/**
 * A `404.md`/`404.mdx` directly in a source's folder is the site's not-found page (Starlight's `src/content/docs/404.md`,
 * VitePress, Jekyll): it is served with status 404, so as a result it would be a link that does not open.
 */
const NOT_FOUND_PAGE = '404.{md,mdx}';

/**
 * Lists the content files of every source: `dir` sources recursively (`.md`/`.mdx`, skipping `skipDirs` names at any
 * depth, dot-folders, node_modules and a not-found page at the top), `files` sources as listed. Paths are relative to `cwd` (the directory of the
 * config file). Files are returned sorted, so an index is built the same way every time.
 */
export async function collectDocuments(
  options: SearchOptions | ResolvedConfig,
  { cwd = process.cwd() }: { cwd?: string } = {},
): Promise<SourceFile[]> {
  const config = resolveConfig(options);
  const missing = missingSources(config, cwd);
  if (missing.length > 0) throw new SiteSearchError(missing.join('\n'));
  const found: SourceFile[] = [];
  for (const source of config.sources) {
    if (source.files) {
      for (const file of source.files) {
        found.push({ path: resolve(cwd, file), relativePath: file.replace(/\\/g, '/'), source });
      }
      continue;
    }
    const dir = resolve(cwd, source.dir!);
    const files = await glob('**/*.{md,mdx}', {
      cwd: dir,
      ignore: ['**/node_modules/**', NOT_FOUND_PAGE, ...source.skipDirs.map((name) => `**/${escapeGlob(name)}/**`)],
      dot: false,
      onlyFiles: true,
      expandDirectories: false,
    });
    // The glob leaves out links to nothing; listed, they are reported as skipped instead of a page silently missing.
    files.push(...brokenLinks(dir, new Set(['node_modules', ...source.skipDirs])));
    // Joined by hand: tinyglobby's paths are already normal, and path.resolve's garbage for a large site's files made
    // the heap grow at the start of a build.
    for (const file of files.sort()) found.push({ path: `${dir}${sep}${sep === '/' ? file : file.replaceAll('/', sep)}`, relativePath: file, source });
  }
  return found;
}

/**
 * One line per source whose folder or file is not there (relative to `cwd`, the config file's folder), naming the
 * option and the fix; empty when every source exists. `site-search check` reports these; `index` refuses to run.
 */
export function missingSources(config: ResolvedConfig, cwd: string): string[] {
  const problems: string[] = [];
  for (const [i, source] of config.sources.entries()) {
    if (source.files) {
      for (const file of source.files) {
        if (!existsSync(resolve(cwd, file))) {
          problems.push(`[site-search] sources[${i}].files: ${file} does not exist (looked in ${cwd}). Fix "files" in your search options.`);
        }
      }
      continue;
    }
    const dir = resolve(cwd, source.dir!);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) {
      problems.push(
        `[site-search] sources[${i}].dir: ${relative(cwd, dir) || dir} is not a directory (looked in ${cwd}). Fix "dir" in your search options, or create the folder.`,
      );
    }
  }
  return problems;
}

/**
 * `.md`/`.mdx` symbolic links under `dir` whose target does not exist, as paths relative to `dir` with forward slashes,
 * skipping the folders the glob skips. Read entry by entry, so a tree of 100,000 files leaves no garbage to keep.
 */
function brokenLinks(dir: string, skip: Set<string>): string[] {
  const found: string[] = [];
  const walk = (folder: string, prefix: string) => {
    const entries = opendirSync(folder);
    try {
      for (let entry = entries.readSync(); entry; entry = entries.readSync()) {
        if (entry.name.startsWith('.')) continue;
        if (entry.isDirectory()) {
          if (!skip.has(entry.name)) walk(join(folder, entry.name), `${prefix}${entry.name}/`);
        } else if (entry.isSymbolicLink() && /\.mdx?$/.test(entry.name) && !existsSync(join(folder, entry.name))) {
          found.push(`${prefix}${entry.name}`);
        }
      }
    } finally {
      entries.closeSync();
    }
  };
  walk(dir, '');
  return found;
}

function escapeGlob(name: string): string {
  return name.replace(/[*?[\]{}()!@+]/g, (c) => `\\${c}`);
}
