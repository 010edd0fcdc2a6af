/** Next.js 16 (App Router route handlers, `next build` + `next start`) with `site-search/next`. */
import { join } from 'node:path';
import { afterAll, beforeAll, describe } from 'vitest';
import { devModeSuite, endpointSuite, MISSING_BINDING, type EndpointUnderTest } from './endpoint-suite.js';
import { coreHandler, freePort, prepare, start } from './harness.js';

describe('Next.js 16 + next start', () => {
  let t: EndpointUnderTest;
  beforeAll(async () => {
    const dir = await prepare('next16', ['npx', 'next', 'build']);
    const port = await freePort();
    const app = await start(['npx', 'next', 'start', '-p', String(port), '-H', '127.0.0.1'], { cwd: dir, port });
    t = {
      app,
      core: coreHandler(join(dir, '.site-search/search.db')),
      route: '/api/search',
      unbound: () => fetch(`${app.origin}/api/unbound?q=install`),
      unboundMessage: MISSING_BINDING,
      // next start reports requests on localhost whatever the Host; the links must follow the Host the browser sent.
      alias: `http://localhost:${port}`,
    };
  }, 240_000);
  afterAll(() => t?.app.stop());
  endpointSuite(() => t, { followsHost: true });
});

devModeSuite('next16', (port) => ['npx', 'next', 'dev', '-p', String(port), '-H', '127.0.0.1'], { reindexes: true });
