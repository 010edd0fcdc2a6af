/** SvelteKit 2 and 3 with adapter-node (`vite build` + `node build`) and `site-search/sveltekit`. */
import { join } from 'node:path';
import { afterAll, beforeAll, describe } from 'vitest';
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
});

for (const name of ['sveltekit2', 'sveltekit3']) {
  devModeSuite(name, (port) => ['npx', 'vite', 'dev', '--host', '127.0.0.1', '--port', String(port), '--strictPort'], { reindexes: true });
}
