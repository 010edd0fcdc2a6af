/**
 * Astro with the `site-search/astro` integration: Astro 5 and 7 on the Node adapter (`node dist/server/entry.mjs`),
 * and Astro 7 on the Cloudflare adapter, served by `wrangler dev` with D1 pushed by `site-search index --d1 local`.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/chromium.js';
import { docBlock } from '../helpers/doc-blocks.js';
import { devModeSuite, endpointSuite, MISSING_BINDING, type EndpointUnderTest } from './endpoint-suite.js';
import { mcpSuite } from './mcp-suite.js';
import { openSqlite } from '../../adapters/node.js';
import { createLlmsHandler } from '../../src/llms/index.js';
import { appDir, buildApp, coreHandler, expectAnswersLikeCore, FIXTURE, freePort, indexFixture, options, prepare, pushToLocalD1, SERVE_FUNCTION, start, startReadOnlyCopy, type RunningApp } from './harness.js';

const run = promisify(execFile);
/** Build output without terminal colours (Astro colours differently when CI is set). */
const plain = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');

describe.each(['astro5-node', 'astro7-node'])('%s', (name) => {
  let t: EndpointUnderTest;
  let built = '';
  let twin: RunningApp | undefined;
  const empty = mkdtempSync(join(tmpdir(), 'site-search-astro-'));
  beforeAll(async () => {
    const dir = await prepare(name, ['npx', 'astro', 'build']);
    built = dir;
    const entry = join(dir, 'dist/server/entry.mjs');
    const port = await freePort();
    const app = await start(['node', entry], { cwd: dir, port, env: { HOST: '127.0.0.1', PORT: String(port) } });
    t = {
      app,
      core: coreHandler(join(dir, '.site-search/search.db')),
      route: '/api/search',
      // The same build started where there is no index.
      unbound: async () => {
        const twinPort = await freePort();
        twin = await start(['node', entry], { cwd: empty, port: twinPort, env: { HOST: '127.0.0.1', PORT: String(twinPort) } });
        return fetch(`${twin.origin}/api/search?q=install`);
      },
      // The path as configured: the server's own folders are not shown to visitors.
      unboundMessage: /^Local search index not found at \.site-search\/search\.db \(relative to the folder the server was started in\)\. Run "npx site-search index" in your project folder, and start the server from there\.$/,
      alias: `http://localhost:${port}`,
    };
  }, 240_000);
  afterAll(async () => {
    await t?.app.stop();
    await twin?.stop();
    rmSync(empty, { recursive: true, force: true });
  });
  endpointSuite(() => t, { followsHost: true });
  // astro7-node's config turns on mcp and llms (issue 46).
  if (name === 'astro7-node') {
    mcpSuite(() => t);
    it('writes llms.txt and llms-full.txt from the index into the build output', () => {
      const index = readFileSync(join(built, 'dist/client/llms.txt'), 'utf8');
      // No `site` and no mcp name: the H1 says "Documentation"; a section per type, in the URLs' order.
      expect(index).toMatch(/^# Documentation\n\n> 5 pages of Documentation, each with its title, address and description\.\n\n## post\n\n- \[/);
      expect(index).toContain('\n## doc\n\n- [');
      expect(index).toContain('- [Getting started](/docs/getting-started/): Install the search and run your first query');
      const full = readFileSync(join(built, 'dist/client/llms-full.txt'), 'utf8');
      expect(full).toMatch(/^# Documentation\n\n> Every page of Documentation in full, with its title and address\.\n/);
      expect(full).toContain('# Getting started\n\nURL: /docs/getting-started/\n');
    });
    it('serves each page as Markdown at <page path>.md, the bytes the llms handler gives; a page not indexed is a 404', async () => {
      const core = createLlmsHandler(options, { db: openSqlite(join(built, '.site-search/search.db')), cache: false });
      // Astro reports the request on localhost here (no site, no allowed domain): the page's URL line is on it.
      const sameOrigin = (text: string) => text.replace(/http:\/\/(?:localhost|127\.0\.0\.1):\d+/g, 'ORIGIN');
      for (const path of ['/docs/getting-started.md', '/docs/security.md', '/blog/launch.md']) {
        const page = await fetch(`${t.app.origin}${path}`);
        expect(page.status, path).toBe(200);
        expect(page.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
        const expected = await core(new Request(`${t.app.origin}${path}`));
        expect(expected.status, path).toBe(200);
        expect(sameOrigin(await page.text())).toBe(sameOrigin(await expected.text()));
      }
      expect(await (await fetch(`${t.app.origin}/docs/getting-started.md`)).text()).toContain('# Getting started');
      const missing = await fetch(`${t.app.origin}/docs/not-a-page.md`);
      expect(missing.status).toBe(404);
      expect(((await missing.json()) as { error: string }).error).toBe('No page at /docs/not-a-page in this site\'s index');
      // The page itself is still the page: the route answers only the `.md` path.
      expect((await fetch(`${t.app.origin}/docs/getting-started/`)).headers.get('content-type')).toMatch(/^text\/html/);
    });
  }

  // Issue 44, item 7: the integration opens the index through the handler, so a damaged file is one clear 500 on every
  // request and one log line, not Astro's stack per request (before: the route opened it itself and threw to Astro).
  it('answers a damaged index file with the same clear 500 on every request and logs it once', async () => {
    const damaged = mkdtempSync(join(tmpdir(), 'site-search-astro-damaged-'));
    mkdirSync(join(damaged, '.site-search'));
    writeFileSync(join(damaged, '.site-search/search.db'), 'this is not a database\n'.repeat(200));
    const entry = join(appDir(name), 'dist/server/entry.mjs');
    const port = await freePort();
    const app = await start(['node', entry], { cwd: damaged, port, env: { HOST: '127.0.0.1', PORT: String(port) } });
    try {
      const bodies = [];
      for (const q of ['install', 'routing', 'install']) {
        const res = await fetch(`${app.origin}/api/search?q=${q}`);
        expect(res.status).toBe(500);
        bodies.push(((await res.json()) as { error: string }).error);
      }
      expect(new Set(bodies).size).toBe(1);
      expect(bodies[0]).toMatch(/^Search index is damaged: \.site-search\/search\.db .*"npx site-search index --full"/);
      expect(bodies[0]).not.toContain(damaged);
      const logged = plain(app.output()).split('\n').filter((line) => line.includes('Search index is damaged'));
      expect(logged).toHaveLength(1);
      expect(plain(app.output())).not.toMatch(/^\s+at /m);
    } finally {
      await app.stop();
      rmSync(damaged, { recursive: true, force: true });
    }
  }, 120_000);
});

/**
 * Issue 55, item 1: result links open on every Astro the package claims, with nothing configured, for a reader on a
 * host that is not localhost. Astro 5.18 builds the request's URL on `http://localhost` (no port) unless
 * `security.allowedDomains` names the host, 7.4 on `http://localhost:PORT`, 7.3 on the Host as sent; the box opens
 * every result on the page's own origin whatever the endpoint built. Chromium reaches the app as docs.example.test
 * (mapped to 127.0.0.1), loads a page with the box (docs/ui.md's Astro component, pasted as the page shows it),
 * searches and clicks the first result: it must load that page on docs.example.test. `astro dev` is started with
 * `--allowed-hosts`, as Vite wants for any name but localhost (it answers another with "Blocked request").
 */
const READER_HOST = 'docs.example.test';
const COMPONENT = 'src/components/Search.astro';
const SEARCH_PAGE = 'src/pages/search.astro';

/** Puts docs/ui.md's Astro component, verbatim, on a page of the app at /search; returns how to take both away. */
function addSearchPage(name: string): () => void {
  const dir = appDir(name);
  mkdirSync(join(dir, 'src/components'), { recursive: true });
  writeFileSync(join(dir, COMPONENT), docBlock('docs/ui.md', COMPONENT));
  writeFileSync(join(dir, SEARCH_PAGE), "---\nimport Search from '../components/Search.astro';\n---\n<html lang=\"en\"><head><meta charset=\"utf-8\" /><title>Search</title></head><body><Search /></body></html>\n");
  return () => {
    rmSync(join(dir, 'src/components'), { recursive: true, force: true });
    rmSync(join(dir, SEARCH_PAGE), { force: true });
  };
}

/** The app built with `TEST_ORIGINS=origins` (how its astro.config.mjs sets its origins), its server started. */
async function serveBuilt(name: string, origins: string): Promise<{ port: number; app: RunningApp }> {
  await indexFixture(name);
  const dir = await buildApp(name, ['npx', 'astro', 'build'], { TEST_ORIGINS: origins });
  const port = await freePort();
  return { port, app: await start(['node', join(dir, 'dist/server/entry.mjs')], { cwd: dir, port, env: { HOST: '127.0.0.1', PORT: String(port) } }) };
}

/** `astro dev` on the app, with `TEST_ORIGINS=origins`, answering READER_HOST as Vite's allowed host. */
async function serveDev(name: string, origins: string): Promise<{ port: number; app: RunningApp }> {
  const dir = await indexFixture(name);
  const port = await freePort();
  const command = ['npx', 'astro', 'dev', '--host', '127.0.0.1', '--port', String(port), '--allowed-hosts', READER_HOST];
  return { port, app: await start(command, { cwd: dir, port, env: { TEST_ORIGINS: origins } }) };
}

/** Opens `${origin}/search`, searches in the box and clicks its first result: it must open that page on `origin`. */
async function clickFirstResult(browser: Browser, origin: string): Promise<void> {
  const page = await browser.newPage();
  try {
    await page.goto(`${origin}/search`);
    await page.waitForFunction(() => customElements.get('site-search'));
    await page.locator('site-search [part=input]').fill('install');
    const links = page.locator('site-search a[role=option]');
    await expect.poll(() => links.count()).toBeGreaterThan(0);
    for (const href of await links.evaluateAll((all) => all.map((a) => (a as HTMLAnchorElement).href))) expect(href.startsWith(`${origin}/`), `${href} is on ${origin}`).toBe(true);
    const href = (await links.first().evaluate((a) => (a as HTMLAnchorElement).href)).replace(/#.*/, '');
    const [response] = await Promise.all([page.waitForResponse((r) => r.request().isNavigationRequest()), links.first().click()]);
    expect([response.url(), response.status()]).toEqual([href, 200]);
    // The page's own heading: under astro dev the dev toolbar has headings of its own, in its shadow root.
    await expect.poll(() => page.evaluate(() => document.querySelector('h1')?.textContent)).toBe(new URL(href).pathname.split('/').filter(Boolean).pop());
  } finally {
    await page.close();
  }
}

describe.each([
  { name: 'astro5-node', astro: 'Astro 5.18' },
  { name: 'astro7-node', astro: 'Astro 7.3' },
  { name: 'astro7-newest', astro: 'Astro 7.4, the newest' },
])('$astro ($name), nothing configured: a result chosen in the box opens on the reader\'s host', ({ name }) => {
  let browser: Browser;
  let removePage: () => void;
  beforeAll(async () => {
    removePage = addSearchPage(name);
    browser = await launchChromium([`--host-resolver-rules=MAP ${READER_HOST} 127.0.0.1`]);
  });
  afterAll(async () => {
    await browser?.close();
    removePage?.();
  });

  it.each([
    ['from the built server', serveBuilt],
    ['from astro dev', serveDev],
  ])('%s', async (_how, serve) => {
    const { port, app } = await serve(name, 'none');
    try {
      await clickFirstResult(browser, `http://${READER_HOST}:${port}`);
    } finally {
      await app.stop();
    }
  }, 240_000);
});

/** The result URLs the endpoint at `port` answers for a request whose Host header is `host`. */
function resultUrls(port: number, host: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path: '/api/search?q=install', headers: { Host: host } }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => {
        try {
          resolve((JSON.parse(body) as { results: { url: string }[] }).results.map((r) => r.url));
        } catch (e) {
          reject(new Error(`${res.statusCode} ${body.slice(0, 200)}: ${(e as Error).message}`));
        }
      });
    }).on('error', reject);
  });
}

/** The first result's page URL of MCP's `search` on the app at `origin`, through the official client. */
async function mcpFirstPage(origin: string): Promise<string> {
  const client = new Client({ name: 'site-search-astro-origins', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}/mcp`)));
  try {
    const found = await client.callTool({ name: 'search', arguments: { query: 'getting started', type: 'doc' } });
    return (found.structuredContent as { results: { page: string }[] }).results[0]!.page;
  } finally {
    await client.close();
  }
}

/**
 * Where the absolute URLs (the endpoint's, MCP's) are built on the newest Astro (issue 55, item 1): Astro's `site` when
 * set, then an allowed domain, then the request; under `astro dev`, the request (the dev server follows the Host it
 * was reached by; `site` names production).
 */
describe('astro7-newest: absolute URLs come from Astro\'s site, then an allowed domain, then the request', () => {
  const name = 'astro7-newest';
  const served = (origins: string) => serveBuilt(name, origins);
  let removePage: () => void;
  beforeAll(() => void (removePage = addSearchPage(name)));
  afterAll(() => removePage?.());

  it('site set: the endpoint\'s and MCP\'s URLs are on it, whatever the Host; the box still opens on the reader\'s host', async () => {
    const { port, app } = await served('site');
    const browser = await launchChromium([`--host-resolver-rules=MAP ${READER_HOST} 127.0.0.1`]);
    try {
      for (const host of [`127.0.0.1:${port}`, `${READER_HOST}:${port}`]) {
        const urls = await resultUrls(port, host);
        expect(urls.length).toBeGreaterThan(0);
        for (const url of urls) expect(url.startsWith('https://docs.example.com/'), `${url} (Host: ${host})`).toBe(true);
      }
      expect(await mcpFirstPage(app.origin)).toBe('https://docs.example.com/docs/getting-started/');
      await clickFirstResult(browser, `http://${READER_HOST}:${port}`);
    } finally {
      await browser.close();
      await app.stop();
    }
  }, 240_000);

  it('an allowed domain: the request when Astro took its Host from one, else the allowed domain, never localhost', async () => {
    const { port, app } = await served('allowed');
    try {
      for (const url of await resultUrls(port, `${READER_HOST}:${port}`)) expect(url.startsWith(`http://${READER_HOST}:${port}/`), url).toBe(true);
      // Asked as 127.0.0.1, which is not allowed: Astro says localhost, the links name the allowed domain.
      const urls = await resultUrls(port, `127.0.0.1:${port}`);
      expect(urls.length).toBeGreaterThan(0);
      for (const url of urls) expect(url.startsWith(`http://${READER_HOST}/`), url).toBe(true);
    } finally {
      await app.stop();
    }
  }, 240_000);

  it('nothing set: the request, as Astro reports it (localhost on this Astro: set site for API clients and MCP)', async () => {
    const { port, app } = await served('none');
    try {
      for (const url of await resultUrls(port, `${READER_HOST}:${port}`)) expect(url.startsWith(`http://localhost:${port}/`), url).toBe(true);
    } finally {
      await app.stop();
    }
  }, 240_000);

  it('under astro dev with site set: the request, the dev server the reader is on', async () => {
    const { port, app } = await serveDev(name, 'site');
    try {
      for (const host of [`127.0.0.1:${port}`, `${READER_HOST}:${port}`]) {
        const urls = await resultUrls(port, host);
        expect(urls.length).toBeGreaterThan(0);
        for (const url of urls) expect(url.startsWith(`http://${host}/`), url).toBe(true);
      }
      expect(await mcpFirstPage(app.origin)).toBe(`${app.origin}/docs/getting-started/`);
    } finally {
      await app.stop();
    }
  }, 240_000);
});

// The same app built with @astrojs/vercel and @astrojs/netlify (TEST_ADAPTER in its astro.config.mjs) and nothing
// configured for the index: the integration's route names the file in a way the adapters' file tracing follows, so
// each function carries it. Each function's folder is copied, mounted read-only and served with that folder as the
// working directory, as the host runs it (serve-function.mjs stands in for the host's launcher only).
describe.each([
  { adapter: 'vercel', functionDir: '.vercel/output/functions/_render.func', entry: [] },
  { adapter: 'netlify', functionDir: '.netlify/v1/functions/ssr', entry: ['ssr.mjs'] },
])('astro7-node built with @astrojs/$adapter: the index ships in the function and opens read-only', ({ adapter, functionDir, entry }) => {
  let dir: string;
  let app: Awaited<ReturnType<typeof startReadOnlyCopy>> | undefined;
  beforeAll(async () => {
    await indexFixture('astro7-node');
    dir = await buildApp('astro7-node', ['npx', 'astro', 'build'], { TEST_ADAPTER: adapter });
    app = await startReadOnlyCopy(join(dir, functionDir), (port) => [process.execPath, SERVE_FUNCTION, adapter, String(port), ...entry]);
  }, 240_000);
  afterAll(() => app?.stop());

  it('holds the index and answers searches from a read-only copy, like the core handler', async () => {
    expect(existsSync(join(app!.path, '.site-search/search.db'))).toBe(true);
    await expectAnswersLikeCore(app!, join(dir, '.site-search/search.db'));
  });
});

describe('astro7-cloudflare + wrangler dev + local D1', () => {
  let t: EndpointUnderTest;
  let twin: RunningApp | undefined;
  beforeAll(async () => {
    const dir = await prepare('astro7-cloudflare', ['npx', 'astro', 'build']);
    const state = join(dir, 'd1-state');
    rmSync(state, { recursive: true, force: true });
    await pushToLocalD1(dir, state);
    const serve = (config: string, port: number) =>
      start(['npx', 'wrangler', 'dev', '--config', config, '--local', '--ip', '127.0.0.1', '--port', String(port), '--persist-to', state], {
        cwd: dir,
        port,
      });
    const wranglerJson = join(dir, 'dist/server/wrangler.json');
    const app = await serve(wranglerJson, await freePort());
    // A twin deployment whose wrangler config lacks the D1 binding.
    const unboundJson = join(dir, 'dist/server/wrangler-unbound.json');
    writeFileSync(unboundJson, JSON.stringify({ ...JSON.parse(readFileSync(wranglerJson, 'utf8')), d1_databases: [] }));
    // The core answers from node:sqlite over the same content; D1 must agree with it.
    const sqlite = join(dir, '.site-search/search.db');
    t = {
      app,
      core: coreHandler(sqlite),
      route: '/api/search',
      unbound: async () => {
        twin = await serve(unboundJson, await freePort());
        return fetch(`${twin.origin}/api/search?q=install`);
      },
      unboundMessage: MISSING_BINDING,
    };
  }, 300_000);
  afterAll(async () => {
    await t?.app.stop();
    await twin?.stop();
  });
  endpointSuite(() => t);
});

describe('the integration itself (Astro 7)', () => {
  const dir = appDir('astro7-node');
  const writeOptions = (options: object) => writeFileSync(join(dir, 'search.config.mjs'), `export default ${JSON.stringify(options)};\n`);
  const build = () => run('npx', ['astro', 'build'], { cwd: dir, env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' } });
  const restoreOptions = () => writeFileSync(join(dir, 'search.config.mjs'), readFileSync(join(FIXTURE, 'search.config.mjs')));
  afterAll(restoreOptions);

  it('fails the build with every options problem', async () => {
    writeOptions({ database: 'x', sources: [{ dir: 'content', type: 'doc', url: '/docs' }], maxLimt: 5 });
    const error = await build().then(
      () => undefined,
      (e: { stdout: string; stderr: string }) => e.stdout + e.stderr,
    );
    expect(error).toContain('[site-search] Invalid search options:');
    expect(error).toContain('sources[0].url: must contain ":slug"');
    expect(error).toContain('maxLimt: unknown option (did you mean "maxLimit"?)');
  }, 120_000);

  it('warns at startup when the database is not where the adapter will look (and still builds)', async () => {
    const base = options;
    writeOptions({ ...base, sqlitePath: 'missing/search.db' });
    const node = await build();
    expect(plain(node.stdout + node.stderr)).toMatch(/\[site-search\] No local index at missing\/search\.db yet: run "npx site-search index"/);
    expect(plain(node.stdout + node.stderr)).not.toContain('[site-search] [site-search]');

    const cloudflare = appDir('astro7-cloudflare');
    writeFileSync(join(cloudflare, 'search.config.mjs'), `export default ${JSON.stringify({ ...base, binding: 'DB' })};\n`);
    try {
      const cf = await run('npx', ['astro', 'build'], { cwd: cloudflare, env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' } });
      expect(plain(cf.stdout + cf.stderr)).toContain(
        'the d1_databases entry for "frameworks-search" has binding "SEARCH_DB", but site-search reads "DB"',
      );
    } finally {
      writeFileSync(join(cloudflare, 'search.config.mjs'), readFileSync(join(FIXTURE, 'search.config.mjs')));
    }
  }, 120_000);

  it('injects no route when apiRoute is false, and a custom route otherwise', async () => {
    const base = options;
    for (const [apiRoute, path, status] of [
      [false, '/api/search', 404],
      ['/search.json', '/search.json', 200],
    ] as const) {
      writeOptions({ ...base, apiRoute });
      await build();
      const port = await freePort();
      const app = await start(['node', join(dir, 'dist/server/entry.mjs')], { cwd: dir, port, env: { HOST: '127.0.0.1', PORT: String(port) } });
      try {
        expect((await fetch(`${app.origin}${path}?q=install`)).status, String(apiRoute)).toBe(status);
      } finally {
        await app.stop();
      }
    }
  }, 180_000);
});

for (const name of ['astro5-node', 'astro7-node']) {
  devModeSuite(name, (port) => ['npx', 'astro', 'dev', '--host', '127.0.0.1', '--port', String(port)], name === 'astro7-node' ? { mcp: '/mcp' } : {});
}

// astro dev on the Cloudflare adapter runs the route in workerd with the bindings of wrangler.jsonc, whose local D1
// lives in .wrangler/state: the push goes there, as `site-search index --d1 local` does by default.
devModeSuite('astro7-cloudflare', (port) => ['npx', 'astro', 'dev', '--host', '127.0.0.1', '--port', String(port)], {
  after: async (dir) => {
    const state = join(dir, '.wrangler/state');
    rmSync(state, { recursive: true, force: true });
    await pushToLocalD1(dir, state);
  },
});
