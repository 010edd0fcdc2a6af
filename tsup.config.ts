import { readdirSync } from 'node:fs';
import { defineConfig } from 'tsup';

const UI_LOCALES = readdirSync('src/ui/locales').map((file) => file.replace(/\.ts$/, ''));

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    node: 'adapters/node.ts',
    workers: 'adapters/workers.ts',
    'literal-ranking': 'src/literal-ranking.ts',
    analytics: 'src/analytics/index.ts',
    mcp: 'src/mcp/index.ts',
    llms: 'src/llms/index.ts',
    indexer: 'src/indexer/index.ts',
    cli: 'src/cli/main.ts',
    // The CLI starts it by file name, next to dist/cli.js.
    'index-worker': 'src/indexer/threads/index-worker.ts',
    'parse-worker': 'src/indexer/threads/parse-worker.ts',
    astro: 'adapters/astro/index.ts',
    'astro-route': 'adapters/astro/route.ts',
    'astro-mcp-route': 'adapters/astro/mcp-route.ts',
    'astro-markdown-middleware': 'adapters/astro/markdown-middleware.ts',
    starlight: 'adapters/starlight/index.ts',
    next: 'adapters/next.ts',
    sveltekit: 'adapters/sveltekit.ts',
    'sveltekit-adapter': 'adapters/sveltekit-adapter.ts',
    ui: 'src/ui/index.ts',
    'ui-highlight': 'src/ui/highlight.ts',
    // Each built-in translation is a file of its own that dist/ui.js imports only on a page in that language; as
    // entries they keep stable names (dist/ui-locales/de.js) that a plain-HTML site can copy and the dev server serve.
    ...Object.fromEntries(UI_LOCALES.map((lang) => [`ui-locales/${lang}`, `src/ui/locales/${lang}.ts`])),
  },
  format: ['esm'],
  dts: true,
  clean: true,
  target: 'es2024',
  platform: 'neutral',
  // Only Node entries touch node: built-ins; leave them as imports.
  external: [/^node:/, 'better-sqlite3', /^virtual:/],
  splitting: true,
  treeshake: true,
});
