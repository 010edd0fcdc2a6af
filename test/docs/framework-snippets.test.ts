/**
 * The code users paste from the README and the framework guides, type-checked as their framework's build checks it:
 * each block is taken from the page verbatim (by the file name on its first line), written at that path into a scratch
 * project inside the framework's test app (so `site-search` is the packed package that app installed, and `next`,
 * `@sveltejs/kit` or `astro` are the versions the app builds with), and compiled with strict TypeScript. A renamed
 * export, a misspelt option or a wrong import path in the docs fails here.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, type TestContext } from 'vitest';
import { docBlock as block, docBlocks } from '../helpers/doc-blocks.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const apps = join(root, 'test/frameworks/apps');
const SCRATCH = '.docs-check';

/** Writes the files into a scratch project inside `app` and type-checks them; returns tsc's output ('' when clean). */
function typecheck(app: string, files: Record<string, string>): string {
  const dir = join(apps, app, SCRATCH);
  rmSync(dir, { recursive: true, force: true });
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true, noEmit: true, module: 'esnext', moduleResolution: 'bundler', target: 'es2022', allowJs: true, checkJs: true,
        lib: ['dom', 'esnext'], skipLibCheck: true, typeRoots: [join(root, 'node_modules/@types')], types: ['node'],
      },
      include: Object.keys(files),
    }),
  );
  try {
    execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', dir], { encoding: 'utf8', stdio: 'pipe' });
    return '';
  } catch (e) {
    return (e as { stdout: string }).stdout;
  }
}

afterAll(() => {
  for (const app of ['next16', 'sveltekit2', 'sveltekit3', 'astro7-node', 'astro7-cloudflare', 'starlight-node']) rmSync(join(apps, app, SCRATCH), { recursive: true, force: true });
});

const installed = (app: string) => existsSync(join(apps, app, 'node_modules/site-search/package.json'));

/**
 * Every snippet test is registered whatever is installed (issue 48, item 4: tests filtered out by `installed` were
 * never counted). Without its app a test is skipped, the report naming the app and how to install it; under any CI
 * (`CI` set), where scripts/test.sh installs every app (a fork's CI too: the apps come from npm, not from the
 * project's shared folder), a missing app fails the test instead: no snippet goes unchecked.
 */
function needsApp(app: string, ctx: TestContext): void {
  if (installed(app)) return;
  const reason = `test/frameworks/apps/${app} is not installed (bash test/frameworks/install.sh ${app})`;
  if (process.env.CI) throw new Error(`[site-search] ${reason}; under CI every docs snippet test must run`);
  ctx.skip(reason);
}

describe.each([
  {
    name: 'README: search.config.ts, a Worker, a Fetch route',
    app: 'next16',
    files: () => ({ 'search.config.ts': block('README.md', 'search.config.ts'), 'worker.ts': block('README.md', 'worker.ts'), 'route.ts': block('README.md', 'route.ts') }),
  },
  {
    name: 'docs/frameworks/next.md: Node quick start',
    app: 'next16',
    files: () => ({ 'search.config.ts': block('docs/frameworks/next.md', 'search.config.ts'), 'app/api/search/route.ts': block('docs/frameworks/next.md', 'app/api/search/route.ts') }),
  },
  {
    name: 'docs/frameworks/next.md: origin option and the Cloudflare route',
    app: 'next16',
    files: () => ({ 'search.config.ts': block('docs/frameworks/next.md', 'search.config.ts', 1), 'app/api/search/route.ts': block('docs/frameworks/next.md', 'app/api/search/route.ts', 1) }),
  },
  {
    name: 'docs/frameworks/next.md: next.config.ts for serverless hosts',
    app: 'next16',
    files: () => ({ 'next.config.ts': block('docs/frameworks/next.md', 'next.config.ts') }),
  },
  {
    name: 'docs/frameworks/astro.md: astro.config.mjs for Vercel and Netlify',
    app: 'astro7-node',
    files: () => ({
      'search.config.mjs': block('docs/frameworks/astro.md', 'search.config.mjs'),
      'astro.config.mjs': docBlocks('docs/frameworks/astro.md', 'astro.config.mjs').find((b) => b.includes('@astrojs/vercel'))!,
    }),
  },
  {
    name: 'docs/frameworks/sveltekit.md: adapter-node quick start',
    app: 'sveltekit2',
    files: () => ({ 'search.config.ts': block('docs/frameworks/sveltekit.md', 'search.config.ts'), 'src/routes/api/search/+server.ts': block('docs/frameworks/sveltekit.md', 'src/routes/api/search/+server.ts') }),
  },
  {
    name: 'docs/frameworks/sveltekit.md: adapter-cloudflare endpoint',
    app: 'sveltekit2',
    files: () => ({ 'search.config.ts': block('docs/frameworks/sveltekit.md', 'search.config.ts'), 'src/routes/api/search/+server.ts': block('docs/frameworks/sveltekit.md', 'src/routes/api/search/+server.ts', 1) }),
  },
  // sv create's layout: the adapter in vite.config.ts, read by SvelteKit 2.62+ and 3 alike.
  ...['sveltekit2', 'sveltekit3'].map((app) => ({
    name: `docs/frameworks/sveltekit.md: vite.config.ts with adapter-node, in ${app}`,
    app,
    files: () => ({ 'vite.config.ts': block('docs/frameworks/sveltekit.md', 'vite.config.ts') }),
  })),
  {
    name: 'docs/frameworks/sveltekit.md: vite.config.ts with adapter-vercel and withSearchIndex',
    app: 'sveltekit2',
    files: () => ({ 'vite.config.ts': docBlocks('docs/frameworks/sveltekit.md', 'vite.config.ts').find((b) => b.includes('@sveltejs/adapter-vercel'))! }),
  },
  {
    name: 'docs/frameworks/workers.md: quick start',
    app: 'next16',
    files: () => ({ 'search.config.ts': block('docs/frameworks/workers.md', 'search.config.ts'), 'src/worker.ts': block('docs/frameworks/workers.md', 'src/worker.ts') }),
  },
  {
    name: 'docs/frameworks/astro.md: search.config.mjs, astro.config.mjs, a server-rendered search page helper',
    app: 'astro7-node',
    files: () => ({
      'search.config.mjs': block('docs/frameworks/astro.md', 'search.config.mjs'),
      'astro.config.mjs': block('docs/frameworks/astro.md', 'astro.config.mjs'),
      'src/lib/search.ts': block('docs/frameworks/astro.md', 'src/lib/search.ts'),
    }),
  },
  {
    name: 'docs/analytics.md: the Next.js route with analytics',
    app: 'next16',
    files: () => ({ 'search.config.ts': block('docs/analytics.md', 'search.config.ts'), 'app/api/search/route.ts': block('docs/analytics.md', 'app/api/search/route.ts') }),
  },
  {
    name: 'docs/analytics.md: the SvelteKit endpoint with analytics',
    app: 'sveltekit2',
    files: () => ({ 'search.config.ts': block('docs/analytics.md', 'search.config.ts'), 'src/routes/api/search/+server.ts': block('docs/analytics.md', 'src/routes/api/search/+server.ts') }),
  },
  {
    name: 'docs/analytics.md: the Worker with analytics',
    app: 'next16',
    files: () => ({ 'search.config.ts': block('docs/analytics.md', 'search.config.ts'), 'src/worker.ts': block('docs/analytics.md', 'src/worker.ts') }),
  },
  {
    name: 'docs/mcp.md: the Next.js MCP route',
    app: 'next16',
    files: () => ({ 'search.config.ts': block('docs/mcp.md', 'search.config.ts'), 'app/mcp/route.ts': block('docs/mcp.md', 'app/mcp/route.ts') }),
  },
  {
    name: 'docs/mcp.md: the SvelteKit MCP endpoint',
    app: 'sveltekit2',
    files: () => ({ 'search.config.ts': block('docs/mcp.md', 'search.config.ts'), 'src/routes/mcp/+server.ts': block('docs/mcp.md', 'src/routes/mcp/+server.ts') }),
  },
  {
    name: 'docs/mcp.md: the Worker and the node:http server with MCP',
    app: 'next16',
    files: () => ({ 'search.config.ts': block('docs/mcp.md', 'search.config.ts'), 'src/worker.ts': block('docs/mcp.md', 'src/worker.ts'), 'server.ts': block('docs/mcp.md', 'server.ts') }),
  },
  {
    name: 'docs/mcp.md: the Next.js proxy serving pages as Markdown',
    app: 'next16',
    files: () => ({ 'search.config.ts': block('docs/mcp.md', 'search.config.ts'), 'proxy.ts': block('docs/mcp.md', 'proxy.ts') }),
  },
  {
    name: 'docs/mcp.md: the SvelteKit hook serving pages as Markdown',
    app: 'sveltekit2',
    files: () => ({ 'search.config.ts': block('docs/mcp.md', 'search.config.ts'), 'src/hooks.server.ts': block('docs/mcp.md', 'src/hooks.server.ts') }),
  },
  {
    name: 'docs/mcp.md: the Astro config with MCP',
    app: 'astro7-node',
    files: () => ({ 'astro.config.mjs': block('docs/mcp.md', 'astro.config.mjs') }),
  },
  {
    name: 'docs/frameworks/starlight.md: a static site searching a Worker (astro.config.mjs without an adapter, the Worker)',
    app: 'starlight-node',
    files: () => ({
      'astro.config.mjs': docBlocks('docs/frameworks/starlight.md', 'astro.config.mjs').find((b) => b.includes('apiRoute: false'))!,
      'worker/src/index.ts': block('docs/frameworks/starlight.md', 'worker/src/index.ts'),
    }),
  },
  {
    name: 'docs/frameworks/astro.md: the Cloudflare astro.config.mjs',
    app: 'astro7-cloudflare',
    files: () => ({ 'search.config.mjs': block('docs/frameworks/astro.md', 'search.config.mjs'), 'astro.config.mjs': block('docs/frameworks/astro.md', 'astro.config.mjs', 1) }),
  },
])('$name', ({ app, files }) => {
  it('type-checks as pasted (strict TypeScript, the framework and site-search as its test app installs them)', (ctx) => {
    needsApp(app, ctx);
    expect(typecheck(app, files())).toBe('');
  }, 120_000);
});

describe('docs/frameworks/astro.md: the wrangler.jsonc of the Cloudflare steps', () => {
  it('is what `astro add cloudflare` writes plus the D1 entry: `site-search check` accepts it and its main resolves', (ctx) => {
    needsApp('astro7-cloudflare', ctx);
    const dir = join(apps, 'astro7-cloudflare', SCRATCH);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(join(dir, 'src/content/docs'), { recursive: true });
    writeFileSync(join(dir, 'search.config.mjs'), block('docs/frameworks/astro.md', 'search.config.mjs'));
    const wrangler = block('docs/frameworks/astro.md', 'wrangler.jsonc');
    writeFileSync(join(dir, 'wrangler.jsonc'), wrangler);
    // The packed CLI, as the app installed it.
    const cli = join(apps, 'astro7-cloudflare/node_modules/site-search/dist/cli.js');
    expect(execFileSync(process.execPath, [cli, 'check'], { cwd: dir, encoding: 'utf8', stdio: 'pipe' })).toContain('D1 database "my-site-search" is bound as "SEARCH_DB"');
    // Keys astro add cloudflare writes (Astro 7.3's stub), so the block is not mistaken for the whole file.
    for (const key of ['$schema', 'compatibility_flags', 'main', 'assets', 'observability']) expect(wrangler).toContain(`"${key}"`);
    const main = /"main": "([^"]+)"/.exec(wrangler)![1]!;
    expect(() => createRequire(join(dir, 'x.js')).resolve(main)).not.toThrow();
  }, 60_000);
});

describe('the check catches a docs block that no longer matches the package', () => {
  it('a misspelt option and a renamed export both fail', (ctx) => {
    needsApp('next16', ctx);
    const config = block('docs/frameworks/next.md', 'search.config.ts');
    const route = block('docs/frameworks/next.md', 'app/api/search/route.ts');
    const misspelt = config.replace("database: 'my-site-search'", "database: 'my-site-search', maxLimt: 5");
    expect(misspelt).not.toBe(config);
    expect(typecheck('next16', { 'search.config.ts': misspelt, 'app/api/search/route.ts': route })).toMatch(/maxLimt/);
    const renamed = route.replaceAll('toNextHandler', 'toNextRouteHandler');
    expect(typecheck('next16', { 'search.config.ts': config, 'app/api/search/route.ts': renamed })).toMatch(/toNextRouteHandler/);
  }, 120_000);
});

/**
 * `<site-search>` in the Svelte and Astro full results pages of docs/ui.md, typed by the package alone (issue 37, item
 * 7): the tag's attributes, as the page writes them, are checked against the type the framework's own checker gives
 * that element (Svelte's `SvelteHTMLElements`, Astro's `astroHTML.JSX.IntrinsicElements`), with only `site-search/ui`
 * imported. Without the package's declaration both are an index signature that accepts anything, so the wrong-type
 * line below would not be an error and its `@ts-expect-error` would fail the check. Needs the apps
 * test/frameworks/install.sh installs (see `needsApp`).
 */
function siteSearchAttributes(markup: string): string {
  const tag = /<site-search\s([^>]*)>/.exec(markup)![1]!;
  const entries = [...tag.matchAll(/([\w-]+)(?:="([^"]*)")?/g)].map(([, name, value]) => `'${name}': ${value === undefined ? 'true' : JSON.stringify(value)}`);
  return `{ ${entries.join(', ')} }`;
}

/** Imports `specifier` as the app at `app` resolves it (its own installed framework). */
const importFrom = (app: string, specifier: string) => import(createRequire(join(apps, app, 'package.json')).resolve(specifier));

const elementTypeChecks = [
  {
    app: 'sveltekit2',
    page: () => block('docs/ui.md', 'src/routes/search/+page.svelte').replace(/^<!-- .* -->\n/, ''),
    type: `import type { SvelteHTMLElements } from 'svelte/elements';\ntype Attributes = SvelteHTMLElements['site-search'];`,
    /** Svelte's compiler throws on any error in the component (TypeScript in `<script lang="ts">` included). */
    compile: async (source: string) => {
      const { compile } = (await importFrom('sveltekit2', 'svelte/compiler')) as {
        compile(source: string, options: { filename: string }): { warnings: { message: string }[] };
      };
      return compile(source, { filename: '+page.svelte' }).warnings.map((w) => w.message);
    },
  },
  {
    app: 'astro7-node',
    page: () => block('docs/ui.md', 'src/pages/search.astro'),
    type: `/// <reference types="astro/client" />\ntype Attributes = astroHTML.JSX.IntrinsicElements['site-search'];`,
    /** Astro's compiler, as `astro build` runs it: its diagnostics. */
    compile: async (source: string) => {
      const astro = join(apps, 'astro7-node/node_modules/astro/package.json');
      const { transform } = (await import(createRequire(astro).resolve('@astrojs/compiler-rs'))) as {
        transform(source: string, options: { filename: string }): Promise<{ diagnostics: { text: string }[] }>;
      };
      return (await transform(source, { filename: 'search.astro' })).diagnostics.map((d) => d.text);
    },
  },
];
for (const { app, page, type, compile } of elementTypeChecks) {
  describe(`docs/ui.md: <site-search> in the ${app} results page, typed by site-search/ui`, () => {
    const check = (attributes: string) =>
      typecheck(app, {
        // A triple-slash reference counts only above every statement, so the framework's types come first.
        'src/site-search-page.ts': `${type}\nimport 'site-search/ui';\nexport const page: Attributes = ${attributes};\n// @ts-expect-error: limit is a number or a string\nexport const wrong: Attributes = { limit: { n: 20 } };\n`,
      });

    it('the page’s attributes type-check, and a wrong type is an error', (ctx) => {
      needsApp(app, ctx);
      const attributes = siteSearchAttributes(page());
      expect(attributes).toContain("'query-param': true");
      expect(check(attributes)).toBe('');
    }, 120_000);

    it('the page compiles with the framework’s compiler, with no error or warning', async (ctx) => {
      needsApp(app, ctx);
      const problems = (source: string) => compile(source).catch((e: Error) => [e.message]);
      expect(await problems(page())).toEqual([]);
      // And the check sees a broken page: a tag closed by the wrong name.
      expect(await problems(page().replace('<h1>', '<h1><span>'))).not.toEqual([]);
    }, 120_000);

    it('an attribute the element does not have is an error', (ctx) => {
      needsApp(app, ctx);
      expect(check(siteSearchAttributes(page()).replace("'endpoint'", "'endpont'"))).toMatch(/endpont/);
    }, 120_000);
  });
}
