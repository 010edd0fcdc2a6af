/**
 * SvelteKit 2 and 3 with adapter-node (`vite build` + `node build`) and `site-search/sveltekit`; SvelteKit 2 built with
 * adapter-vercel and adapter-netlify, each function served from a read-only copy.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/chromium.js';
import { mountReadOnly } from '../helpers/read-only-mount.js';
import { mcpSuite } from './mcp-suite.js';
import { analyticsOnExitSuite } from './analytics-exit.js';
import { devModeSuite, endpointSuite, MISSING_BINDING, type EndpointUnderTest } from './endpoint-suite.js';
import { buildApp, coreHandler, docsBlock, expectAnswersLikeCore, freePort, indexFixture, prepare, SERVE_FUNCTION, start, startReadOnlyCopy, type RunningApp } from './harness.js';

/** One production build per app for both suites. */
const builds = new Map<string, Promise<string>>();
const build = (name: string) => builds.get(name) ?? builds.set(name, prepare(name, ['npx', 'vite', 'build'])).get(name)!;
/** adapter-node 5 reads ORIGIN; the SvelteKit 3 app passes SITE_URL as site-search's origin option. */
const serverEnv = (port: number) => {
  const origin = `http://127.0.0.1:${port}`;
  return { HOST: '127.0.0.1', PORT: String(port), ORIGIN: origin, SITE_URL: origin };
};

describe.each(['sveltekit2', 'sveltekit3'])('%s + adapter-node', (name) => {
  let t: EndpointUnderTest;
  beforeAll(async () => {
    const dir = await build(name);
    const port = await freePort();
    const app = await start(['node', 'build'], { cwd: dir, port, env: serverEnv(port) });
    t = {
      app,
      core: coreHandler(join(dir, '.site-search/search.db')),
      route: '/api/search',
      unbound: () => fetch(`${app.origin}/api/unbound?q=install`),
      unboundMessage: MISSING_BINDING,
    };
  }, 240_000);
  afterAll(() => t?.app.stop());
  endpointSuite(() => t);
  // sveltekit2 has src/routes/mcp/+server.ts (issue 46).
  if (name === 'sveltekit2') mcpSuite(() => t);
  // sveltekit2 has routes/api/counted and routes/mcp-counted with analytics on (issue 54).
  if (name === 'sveltekit2') analyticsOnExitSuite(() => build(name), () => ['node', 'build'], { env: serverEnv });

  // adapter-node 5 without ORIGIN reports https:// on a plain-HTTP server: the links do not open, and the server says so.
  // Registered for SvelteKit 2 only (SvelteKit 3's app takes its origin from SITE_URL), so nothing shows as skipped.
  if (name === 'sveltekit2') it('without ORIGIN: warns once, on the server\'s console, that result links are not on the page\'s origin', async () => {
    const dir = join(new URL('.', import.meta.url).pathname, 'apps', name);
    const port = await freePort();
    const [app, browser] = await Promise.all([start(['node', 'build'], { cwd: dir, port, env: { HOST: '127.0.0.1', PORT: String(port) } }), launchChromium()]);
    try {
      const page = await browser.newPage();
      await page.goto(`${app.origin}/docs/getting-started/`);
      const search = () => page.evaluate(async () => ((await (await fetch('/api/search?q=install')).json()) as { results: { url: string }[] }).results.map((r) => r.url));
      expect((await search())[0]).toMatch(new RegExp(`^https://127\\.0\\.0\\.1:${port}/`));
      await search();
      const warning = `[site-search] Result links are built on https://127.0.0.1:${port}, but this search came from a page on ${app.origin}, where they will not open. The <site-search> box opens them on the page's origin; API clients and MCP assistants get them as built. `;
      await expect.poll(() => app.output().includes(warning)).toBe(true);
      expect(app.output()).toContain(`ORIGIN=${app.origin}`);
      expect(app.output().split('[site-search] Result links').length - 1, 'warned once').toBe(1);
    } finally {
      await browser.close();
      await app.stop();
    }
  }, 60_000);

  // Issue 45: the links said https://127.0.0.1:PORT on a plain-HTTP server, so the box opened a page that failed. One
  // port serves one scheme: the box (the app's packed site-search/ui) puts such a link on the page's own.
  if (name === 'sveltekit2') it('without ORIGIN: a result chosen in the box on the page opens (its link on the page’s scheme)', async () => {
    const dir = join(new URL('.', import.meta.url).pathname, 'apps', name);
    const port = await freePort();
    const [app, browser] = await Promise.all([start(['node', 'build'], { cwd: dir, port, env: { HOST: '127.0.0.1', PORT: String(port) } }), launchChromium()]);
    try {
      const page = await browser.newPage();
      const ui = readFileSync(join(dir, 'node_modules/site-search/dist/ui.js'), 'utf8');
      await page.route('**/__site-search-ui.js', (route) => route.fulfill({ contentType: 'text/javascript', body: ui }));
      await page.goto(`${app.origin}/docs/getting-started/`);
      await page.evaluate(() => {
        document.body.prepend(Object.assign(document.createElement('site-search'), { id: 'box' }));
        document.head.append(Object.assign(document.createElement('script'), { type: 'module', src: '/__site-search-ui.js' }));
      });
      await page.waitForFunction(() => customElements.get('site-search'));
      await page.locator('#box [part=input]').fill('install');
      const first = page.locator('#box a[role=option]').first();
      await expect.poll(() => first.getAttribute('href')).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/`));
      const opened = page.waitForEvent('response', (r) => r.request().isNavigationRequest());
      await first.click();
      const response = await opened;
      expect(response.url()).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/`));
      expect(response.status()).toBe(200);
    } finally {
      await browser.close();
      await app.stop();
    }
  }, 60_000);
});

// A read-only container (docker run --read-only) or Lambda: the app's folder, build and index included, cannot be written.
describe.each(['sveltekit2', 'sveltekit3'])('%s + adapter-node on a read-only file system', (name) => {
  let dir: string;
  let mount: ReturnType<typeof mountReadOnly> | undefined;
  let app: RunningApp | undefined;
  beforeAll(async () => {
    dir = await build(name);
    mount = mountReadOnly(dir);
    const port = await freePort();
    app = await start(['node', 'build'], { cwd: mount.path, port, env: serverEnv(port) });
  }, 240_000);
  afterAll(async () => {
    await app?.stop();
    mount?.unmount();
  });

  it('answers searches like the core handler', async () => {
    await expectAnswersLikeCore(app!, join(dir, '.site-search/search.db'));
  });
});

// adapter-vercel and adapter-netlify, configured as docs/frameworks/sveltekit.md says (TEST_ADAPTER picks the adapter in
// the app's vite.config.js). Each function is copied, mounted read-only and served with its folder as the working
// directory, as the host runs it (serve-function.mjs stands in for the host's launcher only). adapter-netlify empties
// build/, adapter-node's output: the memoized build is dropped, so a suite after these builds again.
describe('sveltekit2 built with adapter-vercel and withSearchIndex: the index ships in the function and opens read-only', () => {
  let dir: string;
  let app: Awaited<ReturnType<typeof startReadOnlyCopy>> | undefined;
  beforeAll(async () => {
    dir = await indexFixture('sveltekit2');
    await buildApp('sveltekit2', ['npx', 'vite', 'build'], { TEST_ADAPTER: 'vercel' });
    // adapter-vercel's one function when nothing is split (its name is the route pattern of the catch-all).
    app = await startReadOnlyCopy(join(dir, '.vercel/output/functions/![-]/catchall.func'), (port) => [process.execPath, SERVE_FUNCTION, 'vercel', String(port)]);
  }, 240_000);
  afterAll(() => app?.stop());

  it('holds the index in the folder the function starts in and answers searches from a read-only copy, like the core handler', async () => {
    expect(existsSync(join(app!.path, '.site-search/search.db'))).toBe(true);
    await expectAnswersLikeCore(app!, join(dir, '.site-search/search.db'));
  });

  it('stops the build, naming the fix, when there is no index to ship', async () => {
    const index = join(dir, '.site-search/search.db');
    renameSync(index, `${index}.away`);
    try {
      await expect(buildApp('sveltekit2', ['npx', 'vite', 'build'], { TEST_ADAPTER: 'vercel' })).rejects.toThrow(
        '[site-search] .site-search/search.db not found: run "npx site-search index" before "vite build"',
      );
    } finally {
      renameSync(`${index}.away`, index);
    }
  }, 120_000);
});

describe("sveltekit2 built with adapter-netlify and the guide's netlify.toml, packaged by Netlify's zip-it-and-ship-it", () => {
  let dir: string;
  let unzipped: string;
  let app: Awaited<ReturnType<typeof startReadOnlyCopy>> | undefined;
  beforeAll(async () => {
    dir = await indexFixture('sveltekit2');
    writeFileSync(join(dir, 'netlify.toml'), docsBlock('docs/frameworks/sveltekit.md', '# netlify.toml'));
    try {
      await buildApp('sveltekit2', ['npx', 'vite', 'build'], { TEST_ADAPTER: 'netlify' });
      builds.delete('sveltekit2');
      const zipped = mkdtempSync(join(tmpdir(), 'site-search-netlify-zip-'));
      unzipped = mkdtempSync(join(tmpdir(), 'site-search-netlify-function-'));
      // What Netlify's build does with the internal functions directory: [functions] of netlify.toml becomes the
      // packager's config as netlify-cli's normalizeFunctionsConfig maps it (included_files, relative to the site).
      const load = createRequire(join(dir, 'package.json'));
      const toml = load('@iarna/toml') as { parse(text: string): { functions: { included_files: string[] } } };
      const { zipFunctions } = (await import(load.resolve('@netlify/zip-it-and-ship-it'))) as {
        zipFunctions(dirs: string[], dest: string, options: object): Promise<{ path: string }[]>;
      };
      const config = { '*': { includedFiles: toml.parse(readFileSync(join(dir, 'netlify.toml'), 'utf8')).functions.included_files, includedFilesBasePath: dir } };
      const [fn] = await zipFunctions(['.netlify/functions-internal'].map((d) => join(dir, d)), zipped, { basePath: dir, repositoryRoot: dir, config });
      execFileSync('unzip', ['-q', fn!.path, '-d', unzipped]);
      rmSync(zipped, { recursive: true, force: true });
    } finally {
      rmSync(join(dir, 'netlify.toml'), { force: true });
    }
    // Netlify starts the zip's entry point in the folder it unpacked; the entry wraps the function adapter-netlify wrote
    // (Functions 2.0: a default export taking a Request), which serve-function.mjs calls as Netlify's bootstrap does.
    app = await startReadOnlyCopy(unzipped, (port) => [process.execPath, SERVE_FUNCTION, 'netlify', String(port), '.netlify/functions-internal/sveltekit-render.mjs']);
  }, 240_000);
  afterAll(async () => {
    await app?.stop();
    if (unzipped) rmSync(unzipped, { recursive: true, force: true });
  });

  it('holds the index where included_files puts it and answers searches from a read-only copy, like the core handler', async () => {
    expect(existsSync(join(app!.path, '.site-search/search.db'))).toBe(true);
    await expectAnswersLikeCore(app!, join(dir, '.site-search/search.db'));
  });
});

for (const name of ['sveltekit2', 'sveltekit3']) {
  devModeSuite(name, (port) => ['npx', 'vite', 'dev', '--host', '127.0.0.1', '--port', String(port), '--strictPort'], { reindexes: true, ...(name === 'sveltekit2' ? { mcp: '/mcp' } : {}) });
}
