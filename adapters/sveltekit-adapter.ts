/**
 * `site-search/sveltekit/adapter`: build-time help for SvelteKit adapters whose functions do not carry the index.
 *
 * @example
 * // vite.config.ts
 * import adapter from '@sveltejs/adapter-vercel';
 * import { withSearchIndex } from 'site-search/sveltekit/adapter';
 * export default defineConfig({ plugins: [sveltekit({ adapter: withSearchIndex(adapter()) })] });
 */
import { copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { DEFAULTS } from '../src/options/options.js';

/** The part of SvelteKit's `Adapter` used here (structurally the same object, so the wrapper is one too). */
export interface SvelteKitAdapterLike {
  name: string;
  adapt(builder: { log: { info(message: string): void } }): unknown;
}

/** Where Vercel's Build Output API puts the functions adapter-vercel writes. */
const VERCEL_FUNCTIONS = '.vercel/output/functions';

/**
 * `adapter` that, after it has written its output, copies the SQLite index into every Node.js function of that output,
 * at the index's path (`sqlitePath`, default `.site-search/search.db`) under the function's folder: the folder the host
 * starts the function in, so `openSqlite('.site-search/search.db')` finds it. This is for adapter-vercel, whose
 * file tracing copies only the files code imports and has no option to add one; other adapters are returned to do
 * their own work unchanged (adapter-netlify: list the file in netlify.toml's `included_files`; adapter-node: start the
 * server where `.site-search/` is). The build fails, naming the fix, when the index does not exist yet.
 *
 * @param adapter - the adapter as configured, e.g. `adapter()` from `@sveltejs/adapter-vercel`.
 * @param options - your search options; only `sqlitePath` is read, relative to the project root.
 */
export function withSearchIndex<A extends SvelteKitAdapterLike>(adapter: A, options: { sqlitePath?: string } = {}): A {
  if (adapter.name !== '@sveltejs/adapter-vercel') return adapter;
  const sqlitePath = options.sqlitePath ?? DEFAULTS.sqlitePath;
  return {
    ...adapter,
    async adapt(builder) {
      const index = resolve(sqlitePath);
      // Checked first: a build that deploys functions without their index answers 500 on its first search.
      if (!existsSync(index)) {
        throw new Error(`[site-search] ${sqlitePath} not found: run "npx site-search index" before "vite build" (e.g. "build": "site-search index && vite build" in package.json).`);
      }
      await adapter.adapt(builder);
      const functions = nodeFunctionFolders(resolve(VERCEL_FUNCTIONS));
      for (const folder of functions) {
        const target = join(folder, sqlitePath);
        mkdirSync(dirname(target), { recursive: true });
        copyFileSync(index, target);
      }
      builder.log.info(`[site-search] copied ${sqlitePath} into ${functions.length} function${functions.length === 1 ? '' : 's'} under ${VERCEL_FUNCTIONS}`);
    },
  } as A;
}

/**
 * The `.func` folders under `dir` that run on Node.js. Symbolic links are skipped: adapter-vercel links an ISR route's
 * data function to the page's, which gets its own copy. Edge functions cannot open a file.
 */
function nodeFunctionFolders(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (!lstatSync(path).isDirectory()) continue;
    if (!name.endsWith('.func')) found.push(...nodeFunctionFolders(path));
    else if (JSON.parse(readFileSync(join(path, '.vc-config.json'), 'utf8')).launcherType === 'Nodejs') found.push(path);
  }
  return found;
}
