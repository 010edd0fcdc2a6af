/**
 * `<site-search>` as the frameworks drive it (issue 45), in Debian's Chromium against `site-search dev` (dist/cli.js)
 * with analytics on:
 * - the opt-in attributes `facets`, `highlight`, `recent`, `inline` and `query-param` written each way a framework
 *   writes them: `""` (HTML, React 19), `"true"`/`"false"` (Svelte 5, Vue), absent, and set as properties (Solid, and
 *   Svelte, Vue and React once the element is defined); the requests sent and the links shown are checked;
 * - a result chosen in a box whose `site-search:select` listener cancels the event and lets a router navigate (the
 *   Next.js and SvelteKit handlers of docs/ui.md, taken from the page) is counted once in `site-search stats`;
 * - tag chips show the tags as written.
 */
import { execFile, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AnalyticsStats } from '../../src/analytics/stats.js';
import { launchChromium } from '../helpers/chromium.js';
import { startDevServer } from '../helpers/dev-server.js';
import { makeProject } from '../helpers/project.js';
import { FIXTURE_FILES } from './fixture.js';

const CLI = new URL('../../dist/cli.js', import.meta.url).pathname;
const UI_DOC = readFileSync(new URL('../../docs/ui.md', import.meta.url), 'utf8');
const run = promisify(execFile);

const config = JSON.parse(FIXTURE_FILES['search.config.json']!) as Record<string, unknown>;
// One option per result (no further section rows), so option n is result n.
const site = makeProject({ ...FIXTURE_FILES, 'search.config.json': JSON.stringify({ ...config, analytics: true, sections: 0 }) });
let server: ChildProcess;
let origin: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
/** The search requests the page sent, and the status of each answer. */
let requests: { url: URL; status: number }[];
const pageErrors: string[] = [];

beforeAll(async () => {
  let started;
  [started, browser] = await Promise.all([startDevServer(['--config', 'search.config.json', '--port', '0'], site.dir), launchChromium()]);
  ({ child: server, url: origin } = started);
  context = await browser.newContext({ viewport: { width: 900, height: 900 } });
});

afterAll(async () => {
  await browser?.close();
  server?.kill('SIGTERM');
  site.cleanup();
});

beforeEach(async () => {
  page = await context.newPage();
  requests = [];
  pageErrors.length = 0;
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('response', (r) => {
    const url = new URL(r.url());
    if (url.pathname === '/api/search' && r.request().method() === 'GET') requests.push({ url, status: r.status() });
  });
  await page.goto(`${origin}/`);
  await page.waitForFunction(() => customElements.get('site-search'));
  await page.evaluate(() => localStorage.clear());
});

afterEach(async () => {
  await page.close();
  expect(pageErrors).toEqual([]);
});

/** How a framework leaves an attribute: absent, written as text, or set as the element's property. */
type Written = { absent: true } | { attribute: string } | { property: unknown };
const WAYS: Written[] = [{ absent: true }, { attribute: '' }, { attribute: 'true' }, { attribute: 'false' }, { property: true }, { property: false }, { property: '' }];
const on = (w: Written) => !('absent' in w) && ('attribute' in w ? w.attribute !== 'false' : w.property !== false);
const describeWay = (w: Written) => ('absent' in w ? 'absent' : 'attribute' in w ? `attribute "${w.attribute}"` : `property ${JSON.stringify(w.property)}`);

/**
 * A fresh box, replacing the page's, with `name` written the way `written` says. `before` sets the property before the
 * element exists as a `<site-search>` class (Solid and Vue may render before `defineSiteSearch()` runs).
 */
async function boxWith(name: string, property: string, written: Written, before = false): Promise<void> {
  await page.evaluate(
    ({ name, property, written, before }) => {
      document.querySelector('site-search')!.remove();
      const box = document.createElement('site-search') as unknown as HTMLElement & Record<string, unknown>;
      box.setAttribute('hotkey', 'none');
      if ('attribute' in written) box.setAttribute(name, written.attribute);
      if ('property' in written && !before) box[property] = written.property;
      if ('property' in written && before) {
        // An element not yet upgraded: the property lands on the instance, as it does before the class is defined.
        Object.defineProperty(box, property, { value: written.property, writable: true, configurable: true, enumerable: true });
      }
      document.body.prepend(box);
    },
    { name, property, written, before },
  );
}

const input = () => page.locator('site-search [part=input]');
const options = () => page.locator('site-search [role=option]');
const status = () => page.locator('site-search [part=status]');

/** Searches "otter" and waits for its results (not the recent searches an empty box lists). */
async function searchOtter(): Promise<void> {
  await input().fill('otter');
  await expect.poll(() => page.locator('site-search [part=title]').count()).toBeGreaterThan(2);
}

describe('opt-in attributes read as HTML booleans, whatever a framework writes', () => {
  for (const written of WAYS) {
    it(`facets ${describeWay(written)}`, async () => {
      await boxWith('facets', 'facets', written);
      await searchOtter();
      expect(requests.map((r) => r.status)).toEqual([200]);
      expect(requests[0]!.url.searchParams.get('facets')).toBe(on(written) ? 'type,tags' : null);
      expect((await page.locator('site-search .tags [part=chip]').count()) > 0).toBe(on(written));
    });

    it(`highlight ${describeWay(written)}`, async () => {
      await boxWith('highlight', 'highlight', written);
      await searchOtter();
      const links = (await options().evaluateAll((els) => els.map((a) => (a as HTMLAnchorElement).href))).map((href) => new URL(href));
      for (const link of links) {
        expect([...link.searchParams.keys()]).toEqual(on(written) ? ['highlight'] : []);
        if (on(written)) expect(link.searchParams.get('highlight')).toBe('otter');
      }
    });

    it(`query-param ${describeWay(written)}`, async () => {
      await boxWith('query-param', 'queryParam', written);
      await searchOtter();
      expect(new URL(page.url()).search).toBe(on(written) ? '?q=otter' : '');
    });

    it(`inline ${describeWay(written)}`, async () => {
      await boxWith('inline', 'inline', written);
      await searchOtter();
      const position = await page.locator('site-search [part=panel]').evaluate((panel) => getComputedStyle(panel).position);
      expect(position).toBe(on(written) ? 'static' : 'absolute');
      await page.evaluate(() => (document.activeElement as HTMLElement).blur());
      await expect.poll(() => page.locator('site-search [part=panel]').isVisible()).toBe(on(written));
    });

    it(`recent ${describeWay(written)}`, async () => {
      await page.evaluate(() => localStorage.setItem('site-search:recent', JSON.stringify(['rivers', 'kelp'])));
      await boxWith('recent', 'recent', written);
      await input().focus();
      // Recent searches are on by default (absent) and when written as on; "false" turns them off.
      const shown = 'absent' in written || on(written);
      await expect.poll(() => page.locator('site-search [part~=recent]').allTextContents()).toEqual(shown ? ['rivers✕', 'kelp✕'] : []);
    });
  }

  it('a property set before the element is upgraded takes effect (Solid renders before defineSiteSearch)', async () => {
    await boxWith('highlight', 'highlight', { property: true }, true);
    await boxWith('facets', 'facets', { property: true }, true);
    await searchOtter();
    expect(requests.at(-1)!.url.searchParams.get('facets')).toBe('type,tags');
  });

  it('names the endpoint does not count never reach it: facets="yes", "bogus" and "tags,bogus"', async () => {
    for (const [value, sent] of [
      ['yes', 'type,tags'],
      ['bogus', 'type,tags'],
      ['tags, bogus', 'tags'],
      ['type', 'type'],
    ] as const) {
      requests = [];
      await boxWith('facets', 'facets', { attribute: value });
      await searchOtter();
      expect(requests.map((r) => [r.status, r.url.searchParams.get('facets')])).toEqual([[200, sent]]);
      expect(await status().textContent()).not.toMatch(/unavailable/i);
    }
  });

  it('recent="3" keeps its number; highlight="hl" and query-param="search" keep the parameter they name', async () => {
    await page.evaluate(() => localStorage.setItem('site-search:recent', JSON.stringify(['a1', 'a2', 'a3', 'a4'])));
    await page.evaluate(() => {
      const box = document.querySelector('site-search')!;
      box.setAttribute('recent', '3');
      box.setAttribute('highlight', 'hl');
      box.setAttribute('query-param', 'search');
    });
    await input().focus();
    await expect.poll(() => page.locator('site-search [part~=recent]').count()).toBe(3);
    await searchOtter();
    expect(new URL((await options().first().getAttribute('href'))!, origin).searchParams.get('hl')).toBe('otter');
    expect(new URL(page.url()).searchParams.get('search')).toBe('otter');
  });
});

describe('tag chips', () => {
  it('show the tags as written, not capitalised', async () => {
    await page.evaluate(() => document.querySelector('site-search')!.setAttribute('facets', ''));
    await searchOtter();
    // innerText is what the reader sees (after CSS text-transform); the fixture's tags are lower case.
    const shown = await page.locator('site-search .tags [part=chip]').evaluateAll((chips) => chips.map((c) => (c as HTMLElement).innerText));
    expect(shown.length).toBeGreaterThan(0);
    for (const text of shown) expect(text).toMatch(/^[a-z]+ \d+$/);
  });
});

/** The `onSelect` handler of a docs/ui.md example (its TypeScript type removed), as it runs in the browser. */
function docsHandler(heading: string): string {
  const section = UI_DOC.slice(UI_DOC.indexOf(heading));
  const code = /const onSelect = (\(event[\s\S]*?\n {4}\});/.exec(section)![1]!;
  return code.replace(": HTMLElementEventMap['site-search:select']", '');
}

async function stats(): Promise<AnalyticsStats> {
  return JSON.parse((await run(process.execPath, [CLI, 'stats', '--config', 'search.config.json', '--json'], { cwd: site.dir })).stdout) as AnalyticsStats;
}

describe('clicks counted whoever navigates', () => {
  for (const [framework, heading, router] of [
    ['Next.js', '### Next.js', 'router.push'],
    ['SvelteKit', '### SvelteKit', 'goto'],
  ] as const) {
    it(`${framework}: the docs' handler cancels the select event and its router navigates; the click is counted once`, async () => {
      const handler = docsHandler(heading);
      expect(handler).toContain('event.preventDefault()');
      expect(handler).toContain(router);
      const before = await stats();
      const query = framework === 'Next.js' ? 'otters' : 'sea otter';
      // The router: a client-side navigation (history.pushState), as Next.js and SvelteKit make one.
      await page.evaluate(
        ({ handler }) => {
          const navigate = (url: string) => history.pushState(null, '', url);
          const router = { push: navigate };
          const goto = navigate;
          const onSelect = new Function('router', 'goto', `return ${handler}`)(router, goto) as EventListener;
          document.querySelector('site-search')!.addEventListener('site-search:select', onSelect);
        },
        { handler },
      );
      await input().fill(query);
      await expect.poll(() => options().count()).toBeGreaterThan(1);
      const second = new URL((await options().nth(1).getAttribute('href'))!, origin);
      await options().nth(1).click();
      // The router navigated, not the page: the same document, at the result's address.
      await expect.poll(() => page.url()).toBe(second.href);
      expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(1);

      let after = before;
      for (let attempt = 0; attempt < 40 && after.clicks === before.clicks; attempt++) {
        await new Promise((r) => setTimeout(r, 250));
        after = await stats();
      }
      expect(after.clicks - before.clicks).toBe(1);
      expect(after.topQueries.find((q) => q.query === query)).toMatchObject({ clicks: 1, opened: [{ url: second.pathname, rank: 2, clicks: 1 }] });
      // Once: no second report arrives later.
      await new Promise((r) => setTimeout(r, 1000));
      expect((await stats()).clicks - before.clicks).toBe(1);
    });
  }
});
