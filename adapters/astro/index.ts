/**
 * `site-search/astro`: the Astro integration. Add it to `integrations` and the endpoint is served at `apiRoute`.
 *
 * @example
 * // astro.config.mjs
 * import siteSearch from 'site-search/astro';
 * import options from './search.config.mjs';
 * export default defineConfig({ output: 'server', adapter: cloudflare(), integrations: [siteSearch(options)] });
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveConfig, type ResolvedConfig, type SearchOptions } from '../../src/index.js';
import { checkDatabaseConfig } from '../../src/indexer/wrangler.js';
import { MISSING_MCP_SDK_MESSAGE, SiteSearchError } from '../../src/errors.js';
import { runtimeModule, type Platform } from './runtime-module.js';
import type { AllowedDomain, LinkOrigins } from './link-origin.js';

const VIRTUAL_ID = 'virtual:site-search/runtime';

/** The parts of Astro's integration API used here (structural, so no Astro types are needed at runtime). */
export interface AstroIntegrationLike {
  name: string;
  hooks: {
    'astro:config:setup': (params: {
      config: { root: URL; site?: string };
      command?: 'dev' | 'build' | 'preview' | 'sync';
      injectRoute: (route: { pattern: string; entrypoint: string; prerender?: boolean }) => void;
      addMiddleware: (middleware: { entrypoint: string; order: 'pre' | 'post' }) => void;
      updateConfig: (config: { vite: object }) => unknown;
    }) => void;
    'astro:config:done': (params: {
      config: { adapter?: { name: string }; site?: string; security?: { allowedDomains?: AllowedDomain[] } };
      logger: { warn(message: string): void };
    }) => void;
    'astro:build:done'?: (params: { dir: URL; logger: { info(message: string): void; warn(message: string): void } }) => Promise<void>;
  };
}

/** The Astro integration: validates the options (an invalid one fails the build), checks the database, injects the route. */
export default function siteSearch(options: SearchOptions): AstroIntegrationLike {
  let config: ResolvedConfig;
  let root = process.cwd();
  let platform: Platform = 'node';
  let site: string | undefined;
  let dev = false;
  let links: LinkOrigins = {};

  return {
    name: 'site-search',
    hooks: {
      'astro:config:setup': ({ config: astroConfig, command, injectRoute, addMiddleware, updateConfig }) => {
        config = resolveConfig(options);
        site = astroConfig.site;
        // Under `astro dev` the index changes as you write (a re-run `site-search index`, the Starlight plugin's
        // re-index on save): a cached answer, in the server or the browser, would show the page as it was.
        dev = command === 'dev';
        root = fileURLToPath(astroConfig.root);
        if (config.apiRoute) injectRoute({ pattern: config.apiRoute, entrypoint: 'site-search/astro/route', prerender: false });
        // The MCP server for AI assistants (docs/mcp.md), with the `mcp` option on.
        if (config.mcp) {
          if (!mcpSdkInstalled()) throw new SiteSearchError(MISSING_MCP_SDK_MESSAGE);
          injectRoute({ pattern: config.mcp.route, entrypoint: 'site-search/astro/mcp-route', prerender: false });
        }
        // Each page as Markdown beside it (`/docs/install.md` for `/docs/install/`), with llms.txt (docs/mcp.md).
        if (config.llms) addMiddleware({ entrypoint: 'site-search/astro/markdown-middleware', order: 'pre' });
        updateConfig({
          vite: {
            plugins: [
              {
                name: 'site-search:runtime',
                resolveId: (id: string) => (id === VIRTUAL_ID ? `\0${VIRTUAL_ID}` : undefined),
                load: (id: string) => (id === `\0${VIRTUAL_ID}` ? runtimeModule(config, platform, dev, links) : undefined),
              },
            ],
            // The route imports the virtual module, so Vite must process site-search instead of leaving it to Node.
            ssr: { noExternal: ['site-search'] },
          },
        });
      },
      'astro:config:done': ({ config: astroConfig, logger }) => {
        const cloudflare = astroConfig.adapter?.name === '@astrojs/cloudflare';
        platform = cloudflare ? (astroMajor(root) >= 6 ? 'cloudflare' : 'cloudflare-locals') : 'node';
        // Absolute URLs (link-origin.ts): the `origin` option wins in the handler; the dev server follows the request.
        if (!dev && !config.origin) links = { site: astroConfig.site ? new URL(astroConfig.site).origin : undefined, allowedDomains: astroConfig.security?.allowedDomains };
        if (!config.apiRoute) return;
        if (cloudflare) {
          const check = checkDatabaseConfig(config, root);
          // Astro's logger already labels lines with the integration's name.
          if (!check.ok) logger.warn(check.message.replace(/^\[site-search\] /, ''));
        } else if (!existsSync(resolve(root, config.sqlitePath))) {
          logger.warn(`No local index at ${config.sqlitePath} yet: run "npx site-search index" before starting the server.`);
        }
      },
      // With `llms: true`, llms.txt and llms-full.txt from the local index, beside the built pages (docs/mcp.md).
      'astro:build:done': async ({ dir, logger }) => {
        if (!config.llms) return;
        const { writeLlmsFiles } = await import('../../src/cli/llms.js');
        const origin = config.origin || (site ? new URL(site).origin : undefined);
        try {
          const files = await writeLlmsFiles(config, resolve(root, config.sqlitePath), fileURLToPath(dir), origin ? { origin } : {});
          logger.info(`wrote ${files.join(' and ')}`);
        } catch (e) {
          logger.warn((e as Error).message.replace(/^\[site-search\] /, ''));
        }
      },
    },
  };
}

/**
 * Whether the MCP route's import of the optional peer dependency will resolve: looked up from this package's own
 * folder, as Vite resolves the route's imports (a pnpm store links peers there). Without it Vite bundles a stub and
 * the build fails on a missing export, naming no package; checked before, the build stops with the package's name.
 */
function mcpSdkInstalled(): boolean {
  try {
    // With the `import` conditions, as the route's import is resolved; require's where a loader gives no resolve.
    if (typeof import.meta.resolve === 'function') import.meta.resolve('@modelcontextprotocol/server');
    else createRequire(import.meta.url).resolve('@modelcontextprotocol/server');
    return true;
  } catch {
    return false;
  }
}

/** Astro 6 moved Cloudflare bindings from `locals.runtime` to `cloudflare:workers`. */
function astroMajor(root: string): number {
  try {
    const { version } = createRequire(join(root, 'package.json'))('astro/package.json') as { version: string };
    return Number.parseInt(version, 10);
  } catch {
    return 6;
  }
}
