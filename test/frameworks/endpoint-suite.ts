/**
 * What every framework app must do, checked over HTTP against its real server: answer exactly like the core handler,
 * send the cache and CORS headers, cache repeated queries, answer 400s, preflight and HEAD, and a 500 without a database.
 * The 400 texts are SPEC.md's (the project's specification, ../shared/SPEC.md beside the checkout in the project's CI; for users, docs/http-api.md "Errors").
 */
import { copyFileSync, cpSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchHandler } from '../../src/index.js';
import { FIXTURE, freePort, indexFixture, indexInto, start, withoutOrigin, type RunningApp } from './harness.js';
import { mcpStatusWithHost } from './mcp-suite.js';

export interface EndpointUnderTest {
  app: RunningApp;
  core: SearchHandler;
  /** Path of the search route in the app. */
  route: string;
  /** A request to the same app (or a twin of it) that has no database; must be a 500 with `message`. */
  unbound: () => Promise<Response>;
  unboundMessage: RegExp;
  /**
   * Another origin the same server answers on (`http://localhost:<port>` for a server bound to 127.0.0.1), when the
   * framework builds request URLs from the Host header: result URLs must then follow it.
   */
  alias?: string;
}

/** Fetches the first result's `url` exactly as returned, without following redirects: it must be the page. */
async function expectFirstResultOpens(body: Body): Promise<string> {
  const first = body.results[0];
  expect(first, 'at least one result').toBeDefined();
  const page = await fetch(first!.url, { redirect: 'manual' });
  expect(page.status, `GET ${first!.url}`).toBe(200);
  const slug = new URL(first!.url).pathname.split('/').filter(Boolean).pop()!;
  expect(await page.text(), `${first!.url} is the page of ${slug}`).toMatch(new RegExp(`<h1[^>]*>${slug}</h1>`));
  return first!.url;
}

const QUERIES = ['?q=hostile', '?q=install&limit=3', '?q=search&type=post', '?q=Getting%20Started', '?q=options&offset=1&limit=2', '?q=x'];

type Body = { query: string; results: { url: string; score: number }[] };
/** Scores from D1 and node:sqlite agree to far more digits than ranking needs; compare them at 10 significant digits. */
const comparable = (body: Body) => {
  const b = withoutOrigin(body);
  return { ...b, results: b.results.map((r) => ({ ...r, score: Number(r.score.toPrecision(10)) })) };
};

/** `followsHost`: the app builds request URLs from the Host header, and `alias` is set. */
export function endpointSuite(get: () => EndpointUnderTest, { followsHost = false }: { followsHost?: boolean } = {}): void {
  it('answers every query exactly like the core handler, field by field', async () => {
    const { app, core, route } = get();
    for (const query of QUERIES) {
      const res = await fetch(`${app.origin}${route}${query}`);
      expect(res.status, query).toBe(200);
      const body = (await res.json()) as Body;
      const expected = (await (await core(new Request(`http://core.test/api/search${query}`))).json()) as Body;
      expect(comparable(body), query).toEqual(comparable(expected));
      for (const r of body.results) expect(r.url.startsWith(`${app.origin}/`), `${r.url} is on ${app.origin}`).toBe(true);
    }
    const hostile = (await (await fetch(`${app.origin}${route}?q=hostile`)).json()) as { results: { snippet: string }[] };
    expect(hostile.results[0]!.snippet).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('links every result to a page the app serves: the first result\'s url, fetched as returned, is a 200', async () => {
    const { app, route } = get();
    for (const query of ['?q=install', '?q=launch&type=post', '?q=hostile']) {
      const body = (await (await fetch(`${app.origin}${route}${query}`)).json()) as Body;
      const url = await expectFirstResultOpens(body);
      expect(url.startsWith(`${app.origin}/`), `${url} is on ${app.origin}`).toBe(true);
    }
  });

  if (followsHost) it('resolves result URLs against the origin the browser used, not the server\'s bind address', async () => {
    const { alias, route } = get();
    expect(alias).toBeDefined();
    const body = (await (await fetch(`${alias}${route}?q=install`)).json()) as Body;
    expect(body.results.length).toBeGreaterThan(0);
    for (const r of body.results) expect(r.url.startsWith(`${alias}/`), `${r.url} is on ${alias}`).toBe(true);
    await expectFirstResultOpens(body);
  });


  it('sends Cache-Control and CORS, and serves a repeated query from the cache', async () => {
    const { app, route } = get();
    const url = `${app.origin}${route}?q=Configuration&limit=40&utm=${Date.now()}`;
    const first = await fetch(url);
    expect(first.headers.get('cache-control')).toBe('public, max-age=300');
    expect(first.headers.get('access-control-allow-origin')).toBe('*');
    expect(first.headers.get('x-search-cache')).toBe('MISS');
    // Workers write the cache in waitUntil, after the response: allow it a moment.
    let hit = '';
    for (let i = 0; i < 30 && hit !== 'HIT'; i++) {
      hit = (await fetch(`${app.origin}${route}?q=configuration&limit=25&ref=${i}`)).headers.get('x-search-cache') ?? '';
      if (hit !== 'HIT') await new Promise((r) => setTimeout(r, 100));
    }
    expect(hit).toBe('HIT');
  });

  it('answers 400 with the SPEC messages', async () => {
    const { app, route } = get();
    const cases: [string, string][] = [
      ['?q=install&limit=0', 'Invalid limit'],
      ['?q=install&offset=999', 'Invalid offset (0 to 200)'],
      ['?q=install&type=page', 'Invalid type. One of: doc, post'],
      [`?q=${'a'.repeat(101)}`, 'Query too long (max 100 characters)'],
    ];
    for (const [query, error] of cases) {
      const res = await fetch(`${app.origin}${route}${query}`);
      expect(res.status, query).toBe(400);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await res.json()).toEqual({ error });
    }
  });

  it('answers CORS preflight and HEAD', async () => {
    const { app, route } = get();
    const preflight = await fetch(`${app.origin}${route}`, { method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS');
    const head = await fetch(`${app.origin}${route}?q=install`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('cache-control')).toBe('public, max-age=300');
    expect(await head.text()).toBe('');
  });

  it('answers 500 with the fix when there is no database', async () => {
    const { unbound, unboundMessage } = get();
    const res = await unbound();
    expect(res.status).toBe(500);
    expect(((await res.json()) as { error: string }).error).toMatch(unboundMessage);
  });
}

export const MISSING_BINDING = /^Search database binding "SEARCH_DB" not found in the runtime environment\. .*platform proxy/;

/**
 * The app under its framework's dev server (`astro dev`, `next dev`, `vite dev`), bound to 127.0.0.1 and opened as
 * `localhost`, as a developer's browser does: result URLs must be on `localhost` and the first one must open. `after`
 * runs once the fixture is indexed, before the server starts (a push to the local D1 the dev server binds).
 */
export function devModeSuite(
  name: string,
  command: (port: number) => string[],
  { after, reindexes = false, mcp }: { after?: (dir: string) => Promise<void>; reindexes?: boolean; mcp?: string } = {},
): void {
  describe(`${name} in dev mode`, () => {
    let app: RunningApp | undefined;
    let alias = '';
    let dir = '';
    beforeAll(async () => {
      dir = await indexFixture(name);
      await after?.(dir);
      const port = await freePort();
      app = await start(command(port), { cwd: dir, port });
      alias = `http://localhost:${port}`;
    }, 180_000);
    afterAll(() => app?.stop());

    it('links every result on the host the browser used, and the first one opens (200)', async () => {
      // A dev server compiles routes on first use and restarts when it sees its config change: wait for the route.
      let ready = 0;
      for (let i = 0; i < 60 && ready !== 200; i++) {
        ready = (await fetch(`${alias}/api/search?q=install`)).status;
        if (ready !== 200) await new Promise((r) => setTimeout(r, 500));
      }
      for (const query of ['?q=install', '?q=launch&type=post']) {
        const res = await fetch(`${alias}/api/search${query}`);
        expect(res.status, query).toBe(200);
        const body = (await res.json()) as Body;
        expect(body.results.length, query).toBeGreaterThan(0);
        for (const r of body.results) expect(r.url.startsWith(`${alias}/`), `${r.url} is on ${alias}`).toBe(true);
        await expectFirstResultOpens(body);
      }
    }, 120_000);

    // `reindexes`: the app reads the local SQLite file `site-search index` writes (not D1).
    if (reindexes) it('answers the new text after an edit and a re-index: nothing cached, in the server or the browser', async () => {
      // A copy of the fixture's options and content, so the edit touches no file other suites index.
      const copy = join(dir, '.site-search/edited');
      rmSync(copy, { recursive: true, force: true });
      cpSync(join(FIXTURE, 'content'), join(copy, 'content'), { recursive: true });
      copyFileSync(join(FIXTURE, 'search.config.mjs'), join(copy, 'search.config.mjs'));
      const page = join(copy, 'content/docs/quokkas.md');
      const found = async (q: string) => {
        const res = await fetch(`${alias}/api/search?q=${q}`);
        expect(res.status, q).toBe(200);
        expect(res.headers.get('x-search-cache'), q).not.toBe('HIT');
        expect(res.headers.get('cache-control'), q).toBe('no-store');
        return ((await res.json()) as Body).results.map((r) => new URL(r.url).pathname);
      };
      try {
        // Asked before the page exists, twice: a cached "nothing" would hide the page once it is indexed.
        expect(await found('quokkaflux')).toEqual([]);
        expect(await found('quokkaflux')).toEqual([]);
        writeFileSync(page, '---\ntitle: Quokkas\n---\n\nQuokkaflux is how quokkas deploy.\n');
        await indexInto(dir, join(copy, 'search.config.mjs'));
        expect(await found('quokkaflux')).toEqual(['/docs/quokkas/']);
        writeFileSync(page, '---\ntitle: Quokkas\n---\n\nWombatrix is how quokkas deploy now.\n');
        await indexInto(dir, join(copy, 'search.config.mjs'));
        expect(await found('wombatrix')).toEqual(['/docs/quokkas/']);
        expect(await found('quokkaflux')).toEqual([]);
      } finally {
        await indexFixture(name);
        rmSync(copy, { recursive: true, force: true });
      }
    }, 120_000);

    // Issue 54, item 9: node:http and `site-search dev` refused a foreign Host on /mcp (DNS rebinding); a framework's
    // dev server, which listens on this machine too, answered it.
    if (mcp) it('MCP: refuses a foreign Host (DNS rebinding), and answers localhost and the IP address', async () => {
      const port = new URL(alias).port;
      const url = `${alias}${mcp}`;
      let ready = 0;
      for (let i = 0; i < 60 && ready !== 200; i++) {
        ready = await mcpStatusWithHost(url, `localhost:${port}`);
        if (ready !== 200) await new Promise((r) => setTimeout(r, 500));
      }
      expect(ready).toBe(200);
      expect(await mcpStatusWithHost(url, `127.0.0.1:${port}`)).toBe(200);
      expect(await mcpStatusWithHost(url, `evil.example:${port}`)).toBe(403);
      expect(await mcpStatusWithHost(url, 'rebound.example')).toBe(403);
    }, 120_000);
  });
}
