/**
 * `site-search/starlight` in a real Starlight site (Astro 7, Starlight 0.42, two locales), on @astrojs/node
 * (test/frameworks/apps/starlight-node) and on @astrojs/cloudflare under `wrangler dev` with local D1
 * (apps/starlight-cloudflare, the same src/ through a symbolic link): the plugin alone derives the sources, indexes at
 * build, swaps the Search component and turns Pagefind off; the pages stay prerendered and only the endpoint runs on
 * demand. Chromium presses Ctrl+K, types, and clicks a result in each locale. The Node app is built with `mcp: true`
 * and `llms: true` (astro.mcp.config.mjs): its /mcp answers the official MCP client, and the build output holds
 * llms.txt and llms-full.txt (issue 46).
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointPath, starlightSources } from '../../adapters/starlight/sources.js';
import { axeViolations } from '../helpers/axe.js';
import { launchChromium } from '../helpers/chromium.js';
import { buildApp, freePort, SERVE_FUNCTION, start, startReadOnlyCopy, type RunningApp } from './harness.js';
import { mcpSuite } from './mcp-suite.js';

const run = promisify(execFile);
const CLI = new URL('../../dist/cli.js', import.meta.url).pathname;

interface Answer {
  results: { title: string; url: string; type: string }[];
}

describe('starlightSources: the pages Starlight builds', () => {
  it('one source per locale, root without a prefix and without the locale folders', () => {
    expect(starlightSources({ locales: { root: { label: 'English', lang: 'en' }, fr: { label: 'Français' }, 'pt-br': {} } }, {})).toEqual([
      { dir: 'src/content/docs', type: 'en', url: '/:slug/', recency: false, frontmatter: 'starlight', locale: undefined, skipDirs: ['Templates', 'fr', 'pt-br'] },
      { dir: 'src/content/docs/fr', type: 'fr', url: '/fr/:slug/', recency: false, frontmatter: 'starlight', locale: 'fr' },
      { dir: 'src/content/docs/pt-br', type: 'pt-br', url: '/pt-br/:slug/', recency: false, frontmatter: 'starlight', locale: 'pt-br' },
    ]);
  });

  it('every locale prefixed when there is no root locale; base and trailingSlash as Astro builds them', () => {
    expect(starlightSources({ defaultLocale: 'en', locales: { en: {}, de: {} } }, { base: '/docs/', trailingSlash: 'never' }).map((s) => [s.dir, s.type, s.url])).toEqual([
      ['src/content/docs/en', 'en', '/docs/en/:slug'],
      ['src/content/docs/de', 'de', '/docs/de/:slug'],
    ]);
  });

  it('the box asks apiRoute under base, with a trailing slash only when trailingSlash is "always"', () => {
    expect(endpointPath('/api/search', {})).toBe('/api/search');
    expect(endpointPath('/api/search', { trailingSlash: 'always' })).toBe('/api/search/');
    expect(endpointPath('/api/search/', { trailingSlash: 'never', base: '/docs/' })).toBe('/docs/api/search');
    expect(endpointPath('/api/search/', { trailingSlash: 'ignore', base: '/docs' })).toBe('/docs/api/search/');
  });

  it('a site with one language has one source of type "docs"; a root lang that names another locale becomes "root"', () => {
    expect(starlightSources({}, {})).toEqual([{ dir: 'src/content/docs', type: 'docs', url: '/:slug/', recency: false, frontmatter: 'starlight', locale: undefined }]);
    expect(starlightSources({ locales: { root: { lang: 'fr' }, fr: {} } }, {})[0]!.type).toBe('root');
  });
});

it('docs/frameworks/starlight.md shows the test app\'s astro.config.mjs, the config the tests build', () => {
  const docs = readFileSync(new URL('../../docs/frameworks/starlight.md', import.meta.url), 'utf8');
  const shown = /```js\n(\/\/ astro\.config\.mjs\n[\s\S]*?)```/.exec(docs)?.[1];
  const app = readFileSync(new URL('./apps/starlight-node/astro.config.mjs', import.meta.url), 'utf8');
  expect(shown).toBe(app.replace(/^\/\/ .*\n/, '// astro.config.mjs\n'));
});

/** How each app is built: the Node app with the MCP server and llms.txt on, in the same build (astro.mcp.config.mjs). */
const BUILD: Record<string, string[]> = {
  'starlight-node': ['npx', 'astro', 'build', '--config', 'astro.mcp.config.mjs'],
  'starlight-cloudflare': ['npx', 'astro', 'build'],
};

/** How each app is served: Node runs the server entry; Cloudflare pushes the index to local D1 and runs `wrangler dev`. */
const SERVE: Record<string, (dir: string, port: number) => Promise<RunningApp>> = {
  'starlight-node': (dir, port) => start(['node', join(dir, 'dist/server/entry.mjs')], { cwd: dir, port, env: { HOST: '127.0.0.1', PORT: String(port) } }),
  'starlight-cloudflare': async (dir, port) => {
    const state = join(dir, 'd1-state');
    rmSync(state, { recursive: true, force: true });
    // What a user runs after `astro build`: the options the plugin derived, pushed with wrangler (here --local).
    await run(process.execPath, [CLI, 'index', '--config', '.site-search/options.json', '--d1', 'local', '--', '--persist-to', state], { cwd: dir });
    const wrangler = ['npx', 'wrangler', 'dev', '--config', 'dist/server/wrangler.json', '--local', '--ip', '127.0.0.1', '--port', String(port), '--persist-to', state];
    return start(wrangler, { cwd: dir, port });
  },
};

describe.each(Object.keys(SERVE))('%s: Starlight + site-search/starlight', (name) => {
  let dir: string;
  let app: RunningApp;
  let browser: Browser;
  const search = async (params: Record<string, string>) =>
    (await (await fetch(`${app.origin}/api/search?${new URLSearchParams(params)}`)).json()) as Answer;

  beforeAll(async () => {
    dir = await buildApp(name, BUILD[name]!);
    const port = await freePort();
    [app, browser] = await Promise.all([SERVE[name]!(dir, port), launchChromium()]);
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  if (name === 'starlight-node') {
    mcpSuite(() => ({ app }), '/mcp', {
      query: 'requirements',
      type: 'en',
      title: 'Getting started',
      path: '/guides/getting-started/',
      text: 'Otterbox needs Node 22 or later',
    });

    it('MCP: the tools describe the site by its Starlight title', async () => {
      const res = await fetch(`${app.origin}/mcp`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
      });
      expect(((await res.json()) as { result: { serverInfo: { name: string } } }).result.serverInfo.name).toBe('Otterbox');
    });

    it('writes llms.txt and llms-full.txt from the index into the build output', () => {
      const index = readFileSync(join(dir, 'dist/client/llms.txt'), 'utf8');
      expect(index).toMatch(/^# Otterbox\n\n> .+\n\n## /);
      expect(index).toContain('- [Getting started](/guides/getting-started/): Install Otterbox and build your first site.');
      expect(index).toContain('- [Déploiement](/fr/guides/deployment/)');
      const full = readFileSync(join(dir, 'dist/client/llms-full.txt'), 'utf8');
      expect(full).toContain('# Getting started\n\nURL: /guides/getting-started/\n');
      expect(full).toContain('Otterbox needs Node 22 or later');
    });
  }

  it('prerenders every page, builds no Pagefind index, and serves only the endpoint on demand', () => {
    for (const page of ['index.html', 'guides/deployment/index.html', 'fr/index.html', 'fr/guides/deployment/index.html']) {
      expect(existsSync(join(dir, 'dist/client', page)), page).toBe(true);
    }
    expect(existsSync(join(dir, 'dist/client/pagefind'))).toBe(false);
    const header = readFileSync(join(dir, 'dist/client/fr/index.html'), 'utf8');
    expect(header).toContain('<sl-site-search');
    expect(header).toMatch(/<site-search endpoint="\/api\/search\?type=fr" placeholder="Rechercher"/);
    // The box's own strings follow the page's language and direction (issue 37, item 5).
    expect(header).toMatch(/<site-search [^>]*lang="fr" dir="ltr"/);
  });

  it('answers each locale with the URLs Starlight built, and each result URL is a page (200)', async () => {
    const en = await search({ q: 'riverbank' });
    expect(en.results.map((r) => [r.title, new URL(r.url).pathname, r.type])).toEqual([['Deployment', '/guides/deployment/', 'en']]);
    const fr = await search({ q: 'rivière', type: 'fr' });
    expect(fr.results.map((r) => [r.title, new URL(r.url).pathname, r.type])).toEqual([['Déploiement', '/fr/guides/deployment/', 'fr']]);
    // The locale filter: the same word, only French pages.
    const frOnly = await search({ q: 'otterbox', type: 'fr' });
    expect(frOnly.results.length).toBeGreaterThan(1);
    expect(new Set(frOnly.results.map((r) => r.type))).toEqual(new Set(['fr']));
    const all = await search({ q: 'otterbox', limit: '25' });
    expect(all.results.map((r) => new URL(r.url).pathname).sort()).toEqual(['/', '/fr/', '/fr/guides/deployment/', '/fr/guides/getting-started/', '/guides/deployment/', '/guides/getting-started/']);
    for (const result of all.results) expect((await fetch(result.url)).status, result.url).toBe(200);
  });

  it('leaves out pages that are not search results: the 404 page, pagefind: false, search: false, a draft', async () => {
    // Words only those pages hold (src/content/docs/404.md, guides/internal.md, guides/unlisted.md, guides/upcoming.md).
    for (const q of ['lostburrow', 'hiddenholt', 'quietwarren', 'sketchwork']) expect((await search({ q })).results, q).toEqual([]);
    if (name !== 'starlight-node') return;
    // 404.md is what Starlight answers a missing page with, status 404: as a result, it would be a link that fails.
    const missing = await fetch(`${app.origin}/no-such-page/`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('lostburrow');
  });

  it('writes the derived options where "site-search index --config" reads them (the D1 push)', async () => {
    const { stdout } = await run(process.execPath, [CLI, 'query', 'rivière', '--config', join(dir, '.site-search/options.json'), '--json']);
    expect((JSON.parse(stdout) as Answer).results.map((r) => new URL(r.url, 'http://x').pathname)).toEqual(['/fr/guides/deployment/']);
  });

  // Issue 45, item 5: at 1280×800 the drop-down inside Starlight's dialog showed 128 px of results. The part of the
  // results list the reader sees (its box within the dialog's and the window's) must be at least 40% of the window
  // with eight results (src/content/docs/field/, each holding "holtwatch"), opened with the button and with Ctrl+K.
  it.each(['the search button', 'Ctrl+K'])('in Chromium at 1280×800, opened with %s, the results take the window’s height and carry no locale badge', async (how) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    try {
      await page.goto(`${app.origin}/guides/deployment/`);
      await page.waitForFunction(() => customElements.get('site-search') && customElements.get('sl-site-search'));
      await expect.poll(() => page.locator('button[data-open-modal]').isEnabled()).toBe(true);
      if (how === 'Ctrl+K') await page.keyboard.press('Control+k');
      else await page.locator('button[data-open-modal]').click();
      await expect.poll(() => page.locator('dialog').evaluate((d: HTMLDialogElement) => d.open)).toBe(true);
      await page.keyboard.type('holtwatch');
      await expect.poll(() => page.locator('site-search [part=title]').count()).toBe(8);
      const visible = await page.locator('site-search [part=results]').evaluate((list) => {
        const box = list.getBoundingClientRect();
        const dialog = list.getRootNode() instanceof ShadowRoot ? (list.getRootNode() as ShadowRoot).host.closest('dialog')!.getBoundingClientRect() : box;
        return Math.min(box.bottom, dialog.bottom, innerHeight) - Math.max(box.top, dialog.top, 0);
      });
      console.log(`[results pane] ${how}: ${Math.round(visible)} px of results visible`);
      expect(visible).toBeGreaterThanOrEqual(0.4 * 800);
      // Every result is in the page's locale (the box filters by it): a badge saying "en" on each would repeat it.
      const badges = page.locator('site-search [part=type]');
      expect(await badges.count()).toBe(8);
      for (const badge of await badges.all()) expect(await badge.isVisible()).toBe(false);
    } finally {
      await page.close();
    }
  });

  describe.each([
    ['the root locale', '/', 'riverbank', 'Deployment', '/guides/deployment/'],
    ['the fr locale', '/fr/', 'rivière', 'Déploiement', '/fr/guides/deployment/'],
  ])('in Chromium, %s', (_, start, query, title, landing) => {
    let page: Page;
    afterAll(() => page?.close());

    it('Ctrl+K opens the dialog, typing shows results, a click lands on the page', async () => {
      page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${app.origin}${start}`);
      await page.waitForFunction(() => customElements.get('site-search') && customElements.get('sl-site-search'));
      // Starlight's button, enabled once the script ran.
      await expect.poll(() => page.locator('button[data-open-modal]').isEnabled()).toBe(true);
      await page.keyboard.press('Control+k');
      await expect.poll(() => page.locator('dialog').evaluate((d: HTMLDialogElement) => d.open)).toBe(true);
      // The box has the focus: typing goes straight into it.
      await page.keyboard.type(query);
      const titles = page.locator('site-search [part=title]');
      await expect.poll(() => titles.allTextContents()).toEqual([title]);
      await titles.first().click();
      // Highlight on arrival is on by default: the link carries the words, the page marks them (issue 37, item 3).
      await page.waitForURL(`${app.origin}${landing}?highlight=${encodeURIComponent(query)}`);
      expect(await page.locator('h1').first().textContent()).toBe(title);
      await expect.poll(() => page.locator('.sl-markdown-content mark[data-site-search]').count()).toBeGreaterThan(0);
      expect(errors).toEqual([]);
    });

    it('searches only this locale', async () => {
      await page.goto(`${app.origin}${start}`);
      await page.waitForFunction(() => customElements.get('sl-site-search'));
      await expect.poll(() => page.locator('button[data-open-modal]').isEnabled()).toBe(true);
      await page.keyboard.press('Control+k');
      await page.keyboard.type('otterbox');
      const links = page.locator('site-search a[role=option]');
      await expect.poll(() => links.count()).toBe(3);
      const paths = await links.evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).pathname));
      expect(paths.sort()).toEqual(start === '/fr/' ? ['/fr/', '/fr/guides/deployment/', '/fr/guides/getting-started/'] : ['/', '/guides/deployment/', '/guides/getting-started/']);
      // The status line is in the page's language, inside Starlight's dialog.
      expect(await page.locator('site-search [part=status]').textContent()).toBe(start === '/fr/' ? '3 résultats' : '3 results');
      // axe-core finds no violation in Starlight's dialog with the box and its results (issue 37).
      expect(await axeViolations(page, 'dialog')).toEqual([]);
    });
  });
});

// `astro dev` indexes the docs too (as `astro build` does), and the route answers on the host the browser
// used: opened as localhost, every result URL is on localhost and opens.
describe('starlight-node in dev mode (astro dev)', () => {
  let app: RunningApp | undefined;
  let alias = '';
  beforeAll(async () => {
    ({ app, origin: alias } = await astroDev(join(new URL('.', import.meta.url).pathname, 'apps/starlight-node')));
  }, 180_000);
  afterAll(() => app?.stop());

  it('indexes on start, links results on the host the browser used, and the first one opens (200)', async () => {
    let body: Answer = { results: [] };
    // The dev server compiles the route on first use, and indexes as it starts: wait for an answer with results.
    for (let i = 0; i < 60 && body.results.length === 0; i++) {
      const res = await fetch(`${alias}/api/search?q=riverbank`);
      if (res.status === 200) body = (await res.json()) as Answer;
      if (body.results.length === 0) await new Promise((r) => setTimeout(r, 500));
    }
    expect(body.results.map((r) => [r.title, r.url])).toEqual([['Deployment', `${alias}/guides/deployment/`]]);
    expect((await fetch(body.results[0]!.url)).status).toBe(200);
    const fr = (await (await fetch(`${alias}/api/search?q=rivi%C3%A8re&type=fr`)).json()) as Answer;
    expect(fr.results.map((r) => r.url)).toEqual([`${alias}/fr/guides/deployment/`]);
    expect((await fetch(fr.results[0]!.url)).status).toBe(200);
  }, 120_000);

  it('re-indexes a page saved, added or deleted while it runs, and no answer is cached', async () => {
    const page = join(new URL('.', import.meta.url).pathname, 'apps/starlight-node/src/content/docs/guides/quokkas.md');
    await reindexesOnSave(alias, page, '/guides/quokkas/', ['quokkaflux', 'wombatrix'], 30_000);
  }, 120_000);
});

// Issue 33, item 7: on the Cloudflare adapter, `astro dev` serves the endpoint from the local D1 in .wrangler/state.
// The plugin fills it once the server is up, and pushes a page saved, added or deleted there, one push at a time.
describe('starlight-cloudflare in dev mode (astro dev, local D1)', () => {
  const dir = join(new URL('.', import.meta.url).pathname, 'apps/starlight-cloudflare');
  let app: RunningApp | undefined;
  let origin = '';
  beforeAll(async () => {
    // No index but the one the plugin pushes: what a search finds came through wrangler from the dev server.
    rmSync(join(dir, '.wrangler/state/v3/d1'), { recursive: true, force: true });
    ({ app, origin } = await astroDev(dir));
  }, 180_000);
  afterAll(() => app?.stop());

  it('indexes into the local D1 as it starts, and re-indexes a page saved, added or deleted, with no answer cached', async () => {
    await expect.poll(answer(origin, 'riverbank'), { timeout: 90_000, interval: 500 }).toEqual([`${origin}/guides/deployment/`]);
    // src/ is the Node app's (a symbolic link): a page of its own, so the two dev tests never meet. Each push starts
    // wrangler (twice for an edit): seconds each on a busy machine.
    await reindexesOnSave(origin, join(dir, 'src/content/docs/guides/numbats.md'), '/guides/numbats/', ['numbatique', 'termitrix'], 90_000);
  }, 420_000);
});

/**
 * `astro dev` in the app `dir`, without the index a run before left, opened as `localhost`. Started a second time
 * when the first does not answer within the harness's 30 s: on a loaded machine the Cloudflare app's first start can
 * spend longer than that optimizing its dependencies, which Vite then keeps (the second start answers in seconds); a
 * server that hangs fails both.
 */
async function astroDev(dir: string): Promise<{ app: RunningApp; origin: string }> {
  rmSync(join(dir, '.site-search'), { recursive: true, force: true });
  const once = async () => {
    const port = await freePort();
    const app = await start(['npx', 'astro', 'dev', '--host', '127.0.0.1', '--port', String(port)], { cwd: dir, port });
    return { app, origin: `http://localhost:${port}` };
  };
  return once().catch((e: Error) => (/did not answer/.test(e.message) ? once() : Promise.reject(e)));
}

/** The result URLs the dev server at `origin` answers for `q`, never from a cache. */
const answer = (origin: string, q: string) => async () => {
  const res = await fetch(`${origin}/api/search?q=${q}`);
  expect(res.headers.get('x-search-cache')).not.toBe('HIT');
  // Not max-age=0 either, which lets a browser store the answer.
  expect(res.headers.get('cache-control')).toBe('no-store');
  return res.status === 200 ? ((await res.json()) as Answer).results.map((r) => r.url) : [`HTTP ${res.status}`];
};

/**
 * Adds `page` (found by `words[0]`), edits it (found by `words[1]`, no longer by `words[0]`) and deletes it, waiting up
 * to `timeout` ms for the dev server at `origin` to answer each. Asked for before the page exists first: a cached
 * "nothing" would hide it for cacheMaxAge.
 */
async function reindexesOnSave(origin: string, page: string, url: string, [before, after]: [string, string], timeout: number): Promise<void> {
  const poll = { timeout, interval: 300 };
  const title = url.split('/').filter(Boolean).pop();
  try {
    expect(await answer(origin, before)()).toEqual([]);
    writeFileSync(page, `---\ntitle: ${title}\n---\n\n${before} is how they deploy.\n`);
    await expect.poll(answer(origin, before), poll).toEqual([`${origin}${url}`]);
    writeFileSync(page, `---\ntitle: ${title}\n---\n\n${after} is how they deploy now.\n`);
    await expect.poll(answer(origin, after), poll).toEqual([`${origin}${url}`]);
    expect(await answer(origin, before)()).toEqual([]);
    rmSync(page);
    await expect.poll(answer(origin, after), poll).toEqual([]);
  } finally {
    rmSync(page, { force: true });
  }
}

/**
 * Astro's trailingSlash (astro.config.slash.mjs: the app with TRAILING_SLASH): with 'always' Astro answers
 * /api/search with a 404 under `astro dev` and a 301 from the built server, with 'never' the same for /api/search/.
 * The box must ask the path that answers at once, and each result must open without a redirect.
 */
describe.each(['always', 'never'] as const)("starlight-node with trailingSlash: '%s'", (slash) => {
  const dir = join(new URL('.', import.meta.url).pathname, 'apps/starlight-node');
  const config = ['--config', 'astro.config.slash.mjs'];
  const env = { TRAILING_SLASH: slash };
  const page = (path: string) => (slash === 'always' ? `${path}/` : path);
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(() => browser?.close());

  /** The endpoint the page's box asks, fetched without following redirects, then the box itself in Chromium. */
  const searchWorks = async (origin: string) => {
    const html = await (await fetch(`${origin}${page('/guides/deployment')}`)).text();
    const endpoint = /<site-search endpoint="([^"]+)"/.exec(html)?.[1];
    expect(endpoint).toBe(`${page('/api/search')}?type=en`);
    const url = new URL(endpoint!, origin);
    url.searchParams.set('q', 'riverbank');
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status, String(url)).toBe(200);
    const { results } = (await res.json()) as Answer;
    expect(results.map((r) => new URL(r.url).pathname)).toEqual([page('/guides/deployment')]);
    expect((await fetch(results[0]!.url, { redirect: 'manual' })).status, results[0]!.url).toBe(200);

    const tab = await browser.newPage({ viewport: { width: 1100, height: 800 } });
    try {
      const asked: string[] = [];
      tab.on('response', (r) => void (r.url().includes('/api/search') && asked.push(`${r.status()} ${new URL(r.url()).pathname}`)));
      await tab.goto(`${origin}${page('/guides/getting-started')}`);
      // Under astro dev the page's scripts are compiled on first request: allow a loaded machine its time.
      const slow = { timeout: 30_000 };
      await expect.poll(() => tab.locator('button[data-open-modal]').isEnabled(), slow).toBe(true);
      await tab.keyboard.press('Control+k');
      await tab.keyboard.type('riverbank');
      await expect.poll(() => tab.locator('site-search [part=title]').allTextContents(), slow).toEqual(['Deployment']);
      expect(new Set(asked)).toEqual(new Set([`200 ${page('/api/search')}`]));
    } finally {
      await tab.close();
    }
  };

  it('the built server: the box asks the endpoint at the path that answers, no redirect', async () => {
    await buildApp('starlight-node', ['npx', 'astro', 'build', ...config], env);
    const port = await freePort();
    const app = await start(['node', join(dir, 'dist/server/entry.mjs')], { cwd: dir, port, env: { HOST: '127.0.0.1', PORT: String(port) } });
    try {
      await searchWorks(app.origin);
    } finally {
      await app.stop();
    }
  }, 300_000);

  it('astro dev: the box asks the endpoint at the path that answers, no 404', async () => {
    const port = await freePort();
    const app = await start(['npx', 'astro', 'dev', ...config, '--host', '127.0.0.1', '--port', String(port)], { cwd: dir, port, env });
    try {
      // The dev server indexes as it starts and compiles the route on first use: wait for an answer with results.
      await expect
        .poll(async () => {
          const res = await fetch(`${app.origin}${page('/api/search')}?q=riverbank`, { redirect: 'manual' });
          return res.status === 200 ? ((await res.json()) as Answer).results.length : 0;
        }, { timeout: 60_000, interval: 500 })
        .toBe(1);
      await searchWorks(app.origin);
    } finally {
      await app.stop();
    }
  }, 180_000);
});

// The plugin indexes when the build starts, so @astrojs/vercel's trace finds the index and copies it into the function
// with nothing configured (the app's own config, with vercel() in place of node()). The function folder is copied,
// mounted read-only and served with that folder as the working directory, as Vercel runs it.
describe('starlight-node built with @astrojs/vercel: the index ships in the function and opens read-only', () => {
  let app: Awaited<ReturnType<typeof startReadOnlyCopy>> | undefined;
  beforeAll(async () => {
    const dir = await buildApp('starlight-node', ['npx', 'astro', 'build', '--config', 'astro.vercel.config.mjs']);
    app = await startReadOnlyCopy(join(dir, '.vercel/output/functions/_render.func'), (port) => [process.execPath, SERVE_FUNCTION, 'vercel', String(port)]);
  }, 300_000);
  afterAll(() => app?.stop());

  it('answers each locale from a read-only copy of the function', async () => {
    expect(existsSync(join(app!.path, '.site-search/search.db'))).toBe(true);
    const answer = async (params: Record<string, string>) => {
      const res = await fetch(`${app!.origin}/api/search?${new URLSearchParams(params)}`);
      expect(res.status).toBe(200);
      return ((await res.json()) as Answer).results.map((r) => [r.title, new URL(r.url).pathname, r.type]);
    };
    expect(await answer({ q: 'riverbank' })).toEqual([['Deployment', '/guides/deployment/', 'en']]);
    expect(await answer({ q: 'rivière', type: 'fr' })).toEqual([['Déploiement', '/fr/guides/deployment/', 'fr']]);
  });
});
