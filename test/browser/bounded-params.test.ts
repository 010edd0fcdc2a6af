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
import { MAX_TAGS } from '../../src/search/facets.js';
import { MAX_CHOSEN_TAGS } from '../../src/ui/facets.js';
import { MAX_HIGHLIGHT_MARKS } from '../../src/ui/highlight.js';
import { FIXTURE_FILES } from './fixture.js';

/** A page with twelve tags, one more than a request can choose (the endpoint takes 10). */
const TWELVE_TAGS = Array.from({ length: 12 }, (_, i) => `ermine${i + 1}`);
const site = makeProject({ ...FIXTURE_FILES, 'docs/ermine.md': `---\ntitle: Ermine coats\ntags: [${TWELVE_TAGS.join(', ')}]\n---\nAn ermine is a stoat in its winter coat.\n` });
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

  // Repeat attack (issue 44, row 9): eight short words that begin nearly every word of the page made 30,401 marks and
  // held the page for 0.8 s, more than the 1,000 words of the first report.
  it(`a link whose few words begin most words of the page makes at most ${MAX_HIGHLIGHT_MARKS} marks`, { timeout: 180_000 }, async () => {
    const { result, ms } = await arrive('?highlight=pa+ab+ri+ot+an+no+in+pa');
    console.log(`[bounded-params] ?highlight= beginning most words: ${ms.toFixed(1)} ms in highlightSearchTerms`);
    expect(result).toBe(MAX_HIGHLIGHT_MARKS);
    expect(await page.locator('mark[data-site-search]').count()).toBe(MAX_HIGHLIGHT_MARKS);
  });

  it('a malformed escape in the hash (#%E0%A4%A) neither throws nor stops the scroll to the first mark', async () => {
    const { result } = await arrive('?highlight=kelp#%E0%A4%A');
    expect(result).toBe(2);
    expect(await page.evaluate(() => scrollY)).toBeGreaterThan(0);
  });
});

// Repeat attack (issue 44, row 2): a page with twelve tags offered an eleventh chip once ten were chosen; choosing it
// sent 11 tags, which the endpoint refuses (400), and the box said "Search is unavailable".
describe('tag chips', () => {
  it(`once ${MAX_CHOSEN_TAGS} tags are chosen, only they are offered, and every search the box sends is answered`, { timeout: 120_000 }, async () => {
    expect(MAX_CHOSEN_TAGS).toBe(MAX_TAGS);
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => customElements.get('site-search'));
    await page.evaluate(() => document.querySelector('site-search')!.setAttribute('facets', ''));
    const statuses: number[] = [];
    page.on('response', (r) => r.url().includes('/api/search') && statuses.push(r.status()));
    await page.locator('site-search [part=input]').click();
    await page.keyboard.type('ermine');
    const tagChips = page.locator('site-search .chips').nth(1).locator('[part=chip]');
    const unchosen = page.locator('site-search .chips').nth(1).locator('[part=chip][aria-pressed=false]');
    await expect.poll(() => tagChips.count()).toBe(12);
    for (let chosen = 1; chosen <= MAX_CHOSEN_TAGS; chosen++) {
      await unchosen.first().click();
      await expect.poll(() => page.locator('site-search .chips').nth(1).locator('[part=chip][aria-pressed=true]').count()).toBe(chosen);
      await expect.poll(() => page.locator('site-search [part=title]').allTextContents()).toEqual(['Ermine coats']);
    }
    await expect.poll(() => tagChips.count()).toBe(MAX_CHOSEN_TAGS);
    expect(await unchosen.count()).toBe(0);
    expect(statuses.every((s) => s === 200), statuses.join()).toBe(true);
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
