/** Next.js 16 (App Router route handlers, `next build` + `next start`) with `site-search/next`. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devModeSuite, endpointSuite, MISSING_BINDING, type EndpointUnderTest } from './endpoint-suite.js';
import { coreHandler, expectAnswersLikeCore, freePort, prepare, start, startReadOnlyCopy } from './harness.js';

/** One production build for both suites: next.config.mjs asks for the standalone output too. */
let built: Promise<string> | undefined;
const build = () => (built ??= prepare('next16', ['npx', 'next', 'build']));

describe('Next.js 16 + next start', () => {
  let t: EndpointUnderTest;
  beforeAll(async () => {
    const dir = await build();
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

// Vercel packs each route's function from its trace (.next/server/**/*.nft.json), a Docker image or any Node host runs
// .next/standalone; both on a read-only file system, which a copy of the output under a read-only mount stands for.
describe('Next.js 16 serverless: the index ships in the function and opens read-only', () => {
  let dir: string;
  let app: Awaited<ReturnType<typeof startReadOnlyCopy>> | undefined;
  beforeAll(async () => {
    dir = await build();
    app = await startReadOnlyCopy(join(dir, '.next/standalone'), () => [process.execPath, 'server.js'], { HOSTNAME: '127.0.0.1' });
  }, 240_000);
  afterAll(() => app?.stop());

  it('the search route’s trace (what Vercel packs into its function) lists the index', () => {
    const traceFile = join(dir, '.next/server/app/api/search/route.js.nft.json');
    const trace = JSON.parse(readFileSync(traceFile, 'utf8')) as { files: string[] };
    expect(trace.files.map((f) => resolve(dirname(traceFile), f))).toContain(join(dir, '.site-search/search.db'));
  });

  it('the standalone output holds the index and its server answers from a read-only copy, as next start does', async () => {
    expect(existsSync(join(app!.path, '.site-search/search.db'))).toBe(true);
    await expectAnswersLikeCore(app!, join(dir, '.site-search/search.db'));
  });
});

devModeSuite('next16', (port) => ['npx', 'next', 'dev', '-p', String(port), '-H', '127.0.0.1'], { reindexes: true });
