/**
 * Issue 44, item 5: what a link or the page's storage hands the box and `site-search/ui/highlight` is bounded. In
 * Debian's Chromium (playwright-core) on the page `site-search dev` serves, with the real scripts it serves (dist/).
 */
import type { ChildProcess } from 'node:child_process';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/chromium.js';
import { startDevServer } from '../helpers/dev-server.js';
import { makeProject } from '../helpers/project.js';
import { FIXTURE_FILES } from './fixture.js';

const site = makeProject(FIXTURE_FILES);
let server: ChildProcess;
let origin: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  const started = startDevServer(['--config', 'search.config.json', '--port', '0'], site.dir);
  [{ child: server, url: origin }, browser] = await Promise.all([started, launchChromium()]);
  context = await browser.newContext({ viewport: { width: 860, height: 760 } });
});

afterAll(async () => {
  await browser?.close();
  server?.kill('SIGTERM');
  site.cleanup();
});

beforeEach(async () => {
  page = await context.newPage();
  pageErrors.length = 0;
  page.on('pageerror', (e) => pageErrors.push(e.message));
});

afterEach(async () => {
  await page.close();
  expect(pageErrors).toEqual([]);
});

describe('?highlight= on arrival', () => {
  /**
   * A page of about 197 KB of prose on the dev server's origin, running the served highlight script; `__result` is
   * the number of marks, or what the call threw (caught, so a failure is an answer rather than a timeout).
   */
  async function arrive(search: string): Promise<{ result: number | string; ms: number }> {
    const filler = Array.from({ length: 1_900 }, (_, i) => `<p>Paragraph ${i} about rivers, otters and nothing in particular.</p>`).join('');
    await page.route(`${origin}/long?**`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><main><h1 id="intro">Intro</h1>${filler}<h2 id="kelp">Kelp forests</h2><p>Sea otters rest in kelp.</p>${filler}</main>
<script type="module">import { highlightSearchTerms } from '/site-search-highlight.js';
const start = performance.now();
try { window.__result = highlightSearchTerms().length; }
catch (e) { window.__result = e.name + ': ' + e.message.slice(0, 80); }
window.__ms = performance.now() - start;</script>`,
      }),
    );
    await page.goto(`${origin}/long${search}`);
    await page.waitForFunction(() => (window as unknown as { __result?: unknown }).__result !== undefined, undefined, { timeout: 150_000 });
    return page.evaluate(() => {
      const w = window as unknown as { __result: number | string; __ms: number };
      return { result: w.__result, ms: w.__ms };
    });
  }

  // Before: 0.56 s for 1,000 words, 6.4 s for 10,000, 32 s for 50,000 and then a SyntaxError (a pattern too large).
  it('a link with 50,000 words marks the first ones and throws nothing', { timeout: 180_000 }, async () => {
    const words = Array.from({ length: 50_000 }, (_, i) => `w${i.toString(36)}x`).join('+');
    const { result, ms } = await arrive(`?highlight=kelp+${words}`);
    console.log(`[bounded-params] ?highlight= with 50,000 words: ${ms.toFixed(1)} ms in highlightSearchTerms`);
    expect(result).toBe(2);
    expect(await page.locator('mark[data-site-search]').allTextContents()).toEqual(['Kelp', 'kelp']);
  });

  it('a malformed escape in the hash (#%E0%A4%A) neither throws nor stops the scroll to the first mark', async () => {
    const { result } = await arrive('?highlight=kelp#%E0%A4%A');
    expect(result).toBe(2);
    expect(await page.evaluate(() => scrollY)).toBeGreaterThan(0);
  });
});

describe('recent searches planted in localStorage', () => {
  it('a 2 MB entry and 10,000 more show as at most 5 entries of at most 100 characters', async () => {
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => customElements.get('site-search'));
    await page.evaluate(() => {
      const planted = ['x'.repeat(2_000_000), ...Array.from({ length: 10_000 }, (_, i) => `search ${i}`)];
      localStorage.setItem('site-search:recent', JSON.stringify(planted));
    });
    await page.locator('site-search [part=input]').click();
    const rows = page.locator('site-search [role=option] .row');
    await expect.poll(() => rows.count()).toBe(5);
    expect((await rows.allTextContents()).map((t) => t.length)).toEqual([100, 8, 8, 8, 8]);
    await page.evaluate(() => localStorage.clear());
  });
});
