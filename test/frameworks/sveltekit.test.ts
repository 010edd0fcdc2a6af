/** SvelteKit 2 and 3 with adapter-node (`vite build` + `node build`) and `site-search/sveltekit`. */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/chromium.js';
import { devModeSuite, endpointSuite, MISSING_BINDING, type EndpointUnderTest } from './endpoint-suite.js';
import { coreHandler, freePort, prepare, start } from './harness.js';

describe.each(['sveltekit2', 'sveltekit3'])('%s + adapter-node', (name) => {
  let t: EndpointUnderTest;
  beforeAll(async () => {
    const dir = await prepare(name, ['npx', 'vite', 'build']);
    const port = await freePort();
    // adapter-node 5 reads ORIGIN; the SvelteKit 3 app passes SITE_URL as site-search's origin option.
    const origin = `http://127.0.0.1:${port}`;
    const app = await start(['node', 'build'], { cwd: dir, port, env: { HOST: '127.0.0.1', PORT: String(port), ORIGIN: origin, SITE_URL: origin } });
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

  // adapter-node 5 without ORIGIN reports https:// on a plain-HTTP server: the links do not open, and the server says so.
  it.runIf(name === 'sveltekit2')('without ORIGIN: warns once, on the server\'s console, that result links are not on the page\'s origin', async () => {
    const dir = join(new URL('.', import.meta.url).pathname, 'apps', name);
    const port = await freePort();
    const [app, browser] = await Promise.all([start(['node', 'build'], { cwd: dir, port, env: { HOST: '127.0.0.1', PORT: String(port) } }), launchChromium()]);
    try {
      const page = await browser.newPage();
      await page.goto(`${app.origin}/docs/getting-started/`);
      const search = () => page.evaluate(async () => ((await (await fetch('/api/search?q=install')).json()) as { results: { url: string }[] }).results.map((r) => r.url));
      expect((await search())[0]).toMatch(new RegExp(`^https://127\\.0\\.0\\.1:${port}/`));
      await search();
      const warning = `[site-search] Result links are built on https://127.0.0.1:${port}, but this search came from a page on ${app.origin}, where they will not open. `;
      await expect.poll(() => app.output().includes(warning)).toBe(true);
      expect(app.output()).toContain(`ORIGIN=${app.origin}`);
      expect(app.output().split('[site-search] Result links').length - 1, 'warned once').toBe(1);
    } finally {
      await browser.close();
      await app.stop();
    }
  }, 60_000);
});

for (const name of ['sveltekit2', 'sveltekit3']) {
  devModeSuite(name, (port) => ['npx', 'vite', 'dev', '--host', '127.0.0.1', '--port', String(port), '--strictPort'], { reindexes: true });
}
