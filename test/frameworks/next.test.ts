/**
 * Next.js 16 (App Router route handlers, `next build` + `next start`) with `site-search/next`; its standalone output
 * and Netlify's build of it served from read-only copies.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpSuite } from './mcp-suite.js';
import { analyticsOnExitSuite } from './analytics-exit.js';
import { devModeSuite, endpointSuite, MISSING_BINDING, type EndpointUnderTest } from './endpoint-suite.js';
import { buildApp, coreHandler, docsBlock, expectAnswersLikeCore, FIXTURE, freePort, indexFixture, prepare, SERVE_FUNCTION, start, startReadOnlyCopy } from './harness.js';

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
  // app/mcp/route.js (issue 46); the app has trailingSlash: true, so Next redirects /mcp to /mcp/.
  mcpSuite(() => t, '/mcp/');
});

describe('Next.js 16 + next start, analytics of the endpoint and the MCP server in one file', () => {
  analyticsOnExitSuite(build, (port) => ['npx', 'next', 'start', '-p', String(port), '-H', '127.0.0.1'], { endpoint: '/api/counted/', mcp: '/mcp-counted/' });
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

// Netlify's own build, run here as on Netlify (netlify-build --offline, @netlify/build) with next.md's netlify.toml: it
// runs next build, Netlify's Next.js runtime (@netlify/plugin-nextjs) and its packager. The function's zip, unzipped
// and mounted read-only, is served with its folder as the working directory; the runtime's cache needs Netlify Blobs,
// served by @netlify/blobs' local server as netlify dev serves it. netlify-build rebuilds .next: the memoized build is
// dropped, so a suite after this one builds again.
describe('Next.js 16 on Netlify: the runtime\'s server function holds the index and answers from a read-only copy', () => {
  let dir: string;
  let unzipped: string | undefined;
  let blobs: { stop(): Promise<void> } | undefined;
  const blobsDir = mkdtempSync(join(tmpdir(), 'site-search-netlify-blobs-'));
  let app: Awaited<ReturnType<typeof startReadOnlyCopy>> | undefined;
  beforeAll(async () => {
    dir = await indexFixture('next16');
    // The build command indexes too (npx site-search index in the app, with the fixture's pages where its options say).
    writeFileSync(join(dir, 'netlify.toml'), docsBlock('docs/frameworks/next.md', '# netlify.toml'));
    cpSync(join(FIXTURE, 'content'), join(dir, 'content'), { recursive: true });
    try {
      await buildApp('next16', ['npx', 'netlify-build', '--offline']);
    } finally {
      rmSync(join(dir, 'netlify.toml'), { force: true });
      rmSync(join(dir, 'content'), { recursive: true, force: true });
      built = undefined;
    }
    unzipped = mkdtempSync(join(tmpdir(), 'site-search-netlify-next-'));
    execFileSync('unzip', ['-q', join(dir, '.netlify/functions/___netlify-server-handler.zip'), '-d', unzipped]);
    const load = createRequire(join(dir, 'package.json'));
    const { BlobsServer } = (await import(load.resolve('@netlify/blobs/server'))) as {
      BlobsServer: new (o: { directory: string; token: string; port: number }) => { start(): Promise<{ port: number }>; stop(): Promise<void> };
    };
    const server = new BlobsServer({ directory: blobsDir, token: 'local', port: await freePort() });
    const edgeURL = `http://127.0.0.1:${(await server.start()).port}`;
    blobs = server;
    // What Netlify sets for a function (and netlify dev for a local one): where Netlify Blobs answers, and for which deploy.
    const blobsContext = { deployID: 'local', siteID: 'local', token: 'local', edgeURL, uncachedEdgeURL: edgeURL, primaryRegion: 'local' };
    app = await startReadOnlyCopy(unzipped, (port) => [process.execPath, SERVE_FUNCTION, 'netlify', String(port), '___netlify-server-handler.mjs'], {
      NETLIFY_BLOBS_CONTEXT: Buffer.from(JSON.stringify(blobsContext)).toString('base64'),
    });
  }, 360_000);
  afterAll(async () => {
    await app?.stop();
    await blobs?.stop();
    rmSync(blobsDir, { recursive: true, force: true });
    if (unzipped) rmSync(unzipped, { recursive: true, force: true });
  });

  it('holds the index in the function\'s folder and answers searches like the core handler', async () => {
    expect(existsSync(join(app!.path, '.site-search/search.db'))).toBe(true);
    await expectAnswersLikeCore(app!, join(dir, '.site-search/search.db'));
  });
});

devModeSuite('next16', (port) => ['npx', 'next', 'dev', '-p', String(port), '-H', '127.0.0.1'], { reindexes: true, mcp: '/mcp/' });
