import { copyFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { resolveConfig } from '../options/config.js';
import { SiteSearchError } from '../errors.js';
import type { ResolvedConfig, SearchOptions } from '../options/options.js';

export const CONFIG_NAMES = ['search.config.ts', 'search.config.mts', 'search.config.js', 'search.config.mjs', 'search.config.json'];

/** A resolved config and the directory its paths are relative to. */
export interface LoadedConfig {
  config: ResolvedConfig;
  /** The config file's directory (source paths are relative to it), or the working directory in zero-config mode. */
  cwd: string;
  /** The config file, or undefined in zero-config mode. */
  file?: string;
}

/**
 * Finds the options: `--config FILE`, else `search.config.{ts,mts,js,mjs,json}` in the working directory, else (when a
 * content directory is given on the command line) zero-config defaults for that directory.
 */
export async function loadConfig({ configPath, contentDir, cwd = process.cwd() }: { configPath?: string; contentDir?: string; cwd?: string }): Promise<LoadedConfig> {
  if (contentDir && !configPath) {
    return { config: resolveConfig(zeroConfig(contentDir)), cwd };
  }
  const file = configPath ? resolve(cwd, configPath) : CONFIG_NAMES.map((n) => resolve(cwd, n)).find((p) => existsSync(p));
  if (!file) {
    throw new SiteSearchError(
      `No search.config.ts (or .mts/.js/.mjs/.json) in ${cwd}. Create one, pass --config FILE, or name a content folder: site-search dev ./content`,
    );
  }
  if (!existsSync(file)) throw new SiteSearchError(`${file} does not exist. Fix the --config path.`);
  const options = await importOptions(file);
  try {
    return { config: resolveConfig(options), cwd: dirname(file), file };
  } catch (e) {
    (e as Error).message = (e as Error).message.replace('Invalid search options:', `Invalid search options in ${file}:`);
    throw e;
  }
}

/** Options for `site-search dev ./content` with no config file: every .md/.mdx under the folder, served at /:slug. */
export function zeroConfig(dir: string): SearchOptions {
  return { database: 'site-search', sources: [{ dir, type: 'page', url: '/:slug' }] };
}

async function importOptions(file: string): Promise<SearchOptions> {
  if (file.endsWith('.json')) {
    try {
      return JSON.parse(readFileSync(file, 'utf8'));
    } catch (e) {
      throw new SiteSearchError(`${file} is not valid JSON: ${(e as Error).message}`);
    }
  }
  let module: { default?: unknown; options?: unknown };
  try {
    module = await importModule(file);
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'ERR_UNKNOWN_FILE_EXTENSION') {
      throw new SiteSearchError(`${file}: this Node (${process.versions.node}) cannot load TypeScript. Use Node 22.18 or newer, or rename it to search.config.mjs.`);
    }
    throw new SiteSearchError(`${file} failed to load: ${(e as Error).message}`, { cause: e });
  }
  const options = module.default ?? module.options;
  if (!options) throw new SiteSearchError(`${file} has no default export. Add: export default defineSearchOptions({ ... })`);
  return options as SearchOptions;
}

/**
 * Imports the config module. A `.ts`/`.js` file in a package without `"type": "module"` is CommonJS to Node: one with
 * `import`/`export` lines Node parses twice and then prints a MODULE_TYPELESS_PACKAGE_JSON warning on every run (Node
 * 22.7+; create-next-app and C3 projects have no "type"), and older Nodes fail to parse it. The config is written as an
 * ES module, so such a file is imported from an `.mts`/`.mjs` copy beside it (same folder, so its imports resolve the
 * same) that is removed right after. A CommonJS config (`module.exports`) is imported as it is.
 */
async function importModule(file: string): Promise<{ default?: unknown; options?: unknown }> {
  if (/\.(ts|js)$/.test(file) && !inModulePackage(file) && ES_MODULE_SYNTAX.test(readFileSync(file, 'utf8'))) return importCopy(file);
  try {
    return await import(pathToFileURL(file).href);
  } catch (e) {
    // Module syntax the test above missed: Node parsed it as CommonJS and failed.
    if (!(e instanceof SyntaxError) || !/\.(ts|js)$/.test(file)) throw e;
    return importCopy(file);
  }
}

/** An `import` or `export` statement at the start of a line. */
const ES_MODULE_SYNTAX = /^\s*(?:import|export)\b(?!\s*\()/m;

async function importCopy(file: string): Promise<{ default?: unknown; options?: unknown }> {
  const copy = join(dirname(file), `.${basename(file).replace(/\.(ts|js)$/, `.${process.pid}.m$1`)}`);
  copyFileSync(file, copy);
  try {
    return await import(pathToFileURL(copy).href);
  } finally {
    rmSync(copy, { force: true });
  }
}

/** Whether the nearest package.json above `file` says `"type": "module"` (what makes Node read .ts/.js as ES modules). */
function inModulePackage(file: string): boolean {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        return (JSON.parse(readFileSync(manifest, 'utf8')) as { type?: unknown }).type === 'module';
      } catch {
        return false;
      }
    }
    if (dirname(dir) === dir) return false;
  }
}
