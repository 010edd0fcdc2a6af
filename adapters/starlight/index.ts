/**
 * `site-search/starlight`: a Starlight plugin that replaces Pagefind with site-search.
 *
 * @example
 * // astro.config.mjs
 * import siteSearch from 'site-search/starlight';
 * export default defineConfig({ adapter: node({ mode: 'standalone' }), integrations: [starlight({ title: 'Docs', plugins: [siteSearch()] })] });
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mcpNamed } from './mcp-name.js';
import { resolveConfig, type SearchOptions, type SearchSource } from '../../src/index.js';
import { newBuildStats, pushIndex, readDocuments, type PushCounts, type PushTarget } from '../../src/indexer/index.js';
import { formatWarning } from '../../src/cli/report.js';
import { SiteSearchError } from '../../src/errors.js';
import astroIntegration, { type AstroIntegrationLike } from '../astro/index.js';
import { endpointPath, starlightSources, type AstroUrlConfig, type StarlightLocales } from './sources.js';

export { starlightSources, type LocaleSource } from './sources.js';

/** Options of the Starlight plugin: the site-search options, all optional; the sources come from Starlight. */
export type StarlightSearchOptions = Partial<Omit<SearchOptions, 'sources'>> & {
  /** More sources, indexed beside the docs (e.g. a blog). The docs collection's sources are always derived. */
  sources?: SearchSource[];
  /**
   * The URL the search box asks. Default: `apiRoute` under Astro's `base`, with a trailing slash when Astro's
   * `trailingSlash` is `'always'` and without one when it is `'never'` (so no request is redirected). Set it when
   * another deployment answers searches (a `site-search/workers` Worker on the same domain) and `apiRoute` is `false`.
   */
  endpoint?: string;
  /**
   * Marks the searched words on the page a reader opens from a result, and scrolls to the first
   * (`site-search/ui/highlight`; the result links carry `?highlight=`). Default `true`.
   */
  highlight?: boolean;
};

/** The parts of Starlight's plugin API used here (structural, so Starlight's types are not needed at run time). */
export interface StarlightPluginLike {
  name: string;
  hooks: {
    'config:setup': (params: {
      config: StarlightLocales & { components?: Record<string, string> };
      astroConfig: AstroUrlConfig & { root: URL; adapter?: { name: string } };
      command: 'dev' | 'build' | 'preview' | 'sync';
      updateConfig: (config: { pagefind: false; components: Record<string, string> }) => void;
      addIntegration: (integration: AstroIntegrationLike | IndexIntegration) => void;
      logger: { info(message: string): void; warn(message: string): void };
    }) => void;
  };
}

interface IndexIntegration {
  name: string;
  hooks: {
    'astro:config:setup': (params: { updateConfig: (config: { vite: object }) => unknown }) => Promise<void>;
    'astro:server:setup': (params: { server: { watcher: { on(event: 'all', listener: (event: string, path: string) => void): unknown } } }) => void;
  };
}

/** How long `astro dev` waits after the last saved change before it re-indexes (an editor may write several files). */
const REINDEX_DELAY_MS = 300;

const COMPONENT_ID = 'virtual:site-search/starlight';
/** A static build (no adapter) cannot serve the endpoint: the two ways out (docs/frameworks/starlight.md). */
const NO_ADAPTER =
  'The search endpoint runs on demand, which a static build cannot serve: add an adapter (npx astro add node, or cloudflare, vercel, netlify), or keep the site static and answer searches from a site-search/workers Worker: siteSearch({ apiRoute: false, endpoint: "https://<your worker>/api/search" }) (docs/frameworks/starlight.md, "A static site").';
/** Where `site-search index` finds the options this plugin derived (for pushes to D1). */
export const OPTIONS_FILE = '.site-search/options.json';

/** The Starlight plugin: derives the sources, swaps Starlight's Search component, turns Pagefind off, serves the endpoint. */
export default function siteSearch(options: StarlightSearchOptions = {}): StarlightPluginLike {
  const { endpoint, highlight = true, sources: extra = [], ...rest } = options;
  return {
    name: 'site-search',
    hooks: {
      'config:setup': ({ config: starlight, astroConfig, command, updateConfig, addIntegration, logger }) => {
        const locales = starlightSources(starlight, astroConfig);
        const searchOptions: SearchOptions = {
          database: 'site-search',
          ...rest,
          ...mcpNamed(rest.mcp, (starlight as { title?: unknown }).title),
          sources: [...locales.map(({ locale: _, ...source }) => source), ...extra],
        };
        // Invalid options fail here, with every problem listed, before anything is built.
        const config = resolveConfig(searchOptions);
        // Astro's own error for an on-demand route without an adapter names neither way out of it.
        if (command === 'build' && config.apiRoute && !astroConfig.adapter) throw new SiteSearchError(NO_ADAPTER);
        // A Search override of the site's own is kept (it renders `<site-search>` itself); Pagefind goes either way.
        const Search = starlight.components?.Search ?? 'site-search/starlight/Search.astro';
        updateConfig({ pagefind: false, components: { ...starlight.components, Search } });
        addIntegration(astroIntegration(searchOptions));
        const root = fileURLToPath(astroConfig.root);
        // The box filters by the page's locale when there is more than one.
        const component = {
          endpoint: endpoint ?? endpointPath(config.apiRoute || '/api/search', astroConfig),
          types: locales.length > 1 ? Object.fromEntries(locales.map((l) => [l.locale ?? '', l.type])) : {},
          highlight,
        };
        // On the Cloudflare adapter `astro dev` serves the endpoint from the local D1 in .wrangler/state, which
        // `wrangler d1 execute --local` writes; `astro build` still leaves the local SQLite index, for `site-search query`.
        const d1 = command === 'dev' && astroConfig.adapter?.name === '@astrojs/cloudflare';
        const target: PushTarget = d1 ? { kind: 'd1', remote: false, cwd: root } : { kind: 'sqlite' };
        // What a page lost on the way in (a page skipped because Starlight rejects its frontmatter, a cut body) is
        // printed once per process: `astro dev` re-indexes on every save and would repeat every warning each time.
        const warned = new Set<string>();
        const index = async () => {
          const stats = newBuildStats();
          const pushed = await pushIndex(config, target, readDocuments(config, stats, { cwd: root }), { cwd: root });
          for (const line of stats.warnings.map((w) => formatWarning(w, root))) {
            if (!warned.has(line)) logger.warn(`warning: ${line}`);
            warned.add(line);
          }
          return pushed;
        };
        const indexer: IndexIntegration = {
          name: 'site-search:starlight',
          hooks: {
            'astro:config:setup': async ({ updateConfig: updateAstro }) => {
              updateAstro({ vite: { plugins: [virtualModule(COMPONENT_ID, `export default ${JSON.stringify(component)};`)] } });
              if (command !== 'dev' && command !== 'build') return;
              // Pages are prerendered from the same files, so the index is built with them: `astro dev` and `astro
              // build` leave a current local index, and the options file for `site-search index --d1`.
              writeOptionsFile(root, searchOptions);
              // Under `astro dev` on Cloudflare the endpoint reads the local D1, filled once the server is up (a push
              // through wrangler takes seconds, which the server's start need not wait for).
              if (d1) return;
              const pushed = await index();
              logger.info(`indexed ${pushed.documents} pages into ${relative(root, pushed.destination)}`);
            },
            // Under `astro dev`, a page saved, added or deleted is searchable as soon as its page shows it: the push
            // writes only what changed, one at a time (two pushes to D1 at once would each start wrangler).
            'astro:server:setup': ({ server }) => {
              const dirs = config.sources.flatMap((s) => (s.dir ? [resolve(root, s.dir)] : (s.files ?? []).map((f) => resolve(root, f))));
              let timer: ReturnType<typeof setTimeout> | undefined;
              let pushing = Promise.resolve();
              const push = (done: (counts: PushCounts, destination: string) => string) => {
                pushing = pushing.then(async () => {
                  try {
                    const { counts, destination } = await index();
                    logger.info(done(counts, destination));
                  } catch (e) {
                    logger.warn(`re-index failed: ${(e as Error).message.replace(/^\[site-search\] /, '')}`);
                  }
                });
              };
              if (d1) push((counts, destination) => `indexed ${counts.pages} pages into ${destination}`);
              server.watcher.on('all', (_event, path) => {
                if (!/\.mdx?$/.test(path) || !dirs.some((d) => path === d || isInside(d, path))) return;
                clearTimeout(timer);
                timer = setTimeout(() => push((c) => `re-indexed: ${c.added} added, ${c.changed} changed, ${c.removed} removed`), REINDEX_DELAY_MS);
              });
            },
          },
        };
        addIntegration(indexer);
      },
    },
  };
}

/**
 * Writes the derived options with paths relative to the file, as `site-search index --config` and `stats --config`
 * read them: the index and the analytics file (which the server opens relative to the project's root).
 * @internal
 */
export function writeOptionsFile(root: string, options: SearchOptions): void {
  const file = resolve(root, OPTIONS_FILE);
  const fromFile = (path: string) => relative(dirname(file), resolve(root, path)) || '.';
  const { analytics } = resolveConfig(options);
  const written = {
    ...options,
    sqlitePath: fromFile(options.sqlitePath ?? resolveConfig(options).sqlitePath),
    ...(analytics ? { analytics: { ...analytics, sqlitePath: fromFile(analytics.sqlitePath) } } : {}),
    sources: options.sources.map((s) => ({ ...s, ...(s.dir ? { dir: fromFile(s.dir) } : {}), ...(s.files ? { files: s.files.map(fromFile) } : {}) })),
  };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(written, null, 2)}\n`);
}

function isInside(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

function virtualModule(id: string, source: string) {
  return {
    name: id,
    resolveId: (requested: string) => (requested === id ? `\0${id}` : undefined),
    load: (requested: string) => (requested === `\0${id}` ? source : undefined),
  };
}
