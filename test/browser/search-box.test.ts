/**
 * `<site-search>` in a real browser: Debian's Chromium driven by playwright-core, against the real `site-search dev`
 * server (dist/cli.js) over an indexed fixture, on the page that server serves at `/`. Needs the build (the test
 * command runs tsup first) and /usr/bin/chromium (.ci/run installs it).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SiteSearchElement } from '../../src/ui/element.js';
import type { SearchResponse } from '../../src/ui/types.js';
import { axeViolations } from '../helpers/axe.js';
import { launchChromium } from '../helpers/chromium.js';
import { startDevServer } from '../helpers/dev-server.js';
import { makeProject } from '../helpers/project.js';
import { FIXTURE_FILES } from './fixture.js';

const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname;

const site = makeProject(FIXTURE_FILES);
let server: ChildProcess;
let origin: string;
let browser: Browser;
/** One context for the file (a new one per test costs ~0.3 s); each test gets its own page, routes and media. */
let context: BrowserContext;
let page: Page;

/** Starts `site-search dev --config … --port 0` and resolves with the origin it prints. */
async function startServer(): Promise<string> {
  let url: string;
  ({ child: server, url } = await startDevServer(['--config', 'search.config.json', '--port', '0'], site.dir));
  return url;
}

/** What the endpoint itself answers, to compare the box against. */
/**
 * Where each option of the list leads, in order, for an answer: a result (its best section or page), then each of its
 * further matching sections, which are options of their own.
 */
function optionUrls(answer: SearchResponse): string[] {
  return answer.results.flatMap((r) => [r.section?.url ?? r.url, ...(r.sections ?? []).slice(1).map((s) => s.url)]);
}

async function api(params: Record<string, string>): Promise<SearchResponse> {
  return (await fetch(`${origin}/api/search?${new URLSearchParams(params)}`)).json() as Promise<SearchResponse>;
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  [origin, browser] = await Promise.all([startServer(), launchChromium()]);
  context = await browser.newContext({ viewport: { width: 860, height: 760 } });
});

afterAll(async () => {
  await browser?.close();
  server?.kill('SIGTERM');
  site.cleanup();
});

const pageErrors: string[] = [];
beforeEach(async () => {
  page = await context.newPage();
  pageErrors.length = 0;
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(`${origin}/`);
  await page.waitForFunction(() => customElements.get('site-search'));
  // Recent searches live in the context's localStorage, shared by the tests: each starts without any.
  await page.evaluate(() => localStorage.clear());
});

afterEach(async () => {
  await page.close();
  expect(pageErrors).toEqual([]);
});

// Playwright's CSS selectors pierce open shadow roots, so these reach inside the element.
const input = () => page.locator('site-search [part=input]');
const options = () => page.locator('site-search [role=option]');
const status = () => page.locator('site-search [part=status]');
const titles = () => page.locator('site-search [part=title]').allTextContents();
const more = () => page.locator('site-search [part=more]');
const chip = (name: string) => page.locator('site-search [part=chip]', { hasText: new RegExp(`^${name}$`, 'i') });

async function typeQuery(text: string): Promise<void> {
  await input().click();
  await page.keyboard.type(text);
}

/**
 * Adds `text` in one input event. Typed key by key, a pause past the debounce on a loaded machine sends a request
 * for a part of it too ('otter hab'), which a test of one request overtaking another is not about (CI saw one).
 */
async function appendAtOnce(text: string): Promise<void> {
  await page.keyboard.insertText(text);
}

/** Types `text` and waits until the box shows the endpoint's answer for it. */
async function searchFor(text: string, params: Record<string, string> = {}): Promise<SearchResponse> {
  const expected = await api({ q: text, limit: '8', ...params });
  await typeQuery(text);
  await expect.poll(titles).toEqual(expected.results.map((r) => r.title));
  return expected;
}

const pwned = () => page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned);

describe('the dev page is the element', () => {
  it('serves the element script and uses the config types as chips', async () => {
    const script = await fetch(`${origin}/site-search-ui.js`);
    expect(script.headers.get('content-type')).toContain('text/javascript');
    expect(await script.text()).toContain('site-search:select');
    expect(await page.locator('site-search').getAttribute('endpoint')).toBe('/api/search');
    expect(await page.locator('site-search [part=chip]').allTextContents()).toEqual(['All', 'doc', 'post']);
    await expect.poll(() => input().getAttribute('role')).toBe('combobox');
  });

  it('searches a query given in the URL hash on load', async () => {
    await page.goto('about:blank'); // from `/`, a hash-only change would not reload the page
    await page.goto(`${origin}/#rivers`);
    await expect.poll(() => options().count()).toBe((await api({ q: 'rivers', limit: '8' })).results.length);
  });
});

describe('search as you type', () => {
  it('shows highlighted results with emoji, title, type, date, section and snippet', async () => {
    const expected = await searchFor('rivers');
    expect(await input().getAttribute('aria-expanded')).toBe('true');
    const first = options().first();
    expect(await first.locator('[part=title]').textContent()).toBe(expected.results[0]!.title);
    expect(await first.locator('.emoji').textContent()).toBe('🌊');
    // The section heading is shown, and the result links to the section.
    expect(expected.results[0]!.section?.url).toMatch(/#rivers-and-lakes$/);
    expect(await first.locator('[part=section]').textContent()).toBe('Rivers and lakes');
    expect(await first.getAttribute('href')).toBe(expected.results[0]!.section!.url);
    // Matched words are <mark> elements inside the snippet part.
    const marks = await page.locator('site-search [part=snippet] mark').allTextContents();
    expect(marks.length).toBeGreaterThan(0);
    expect(marks.every((m) => /^rivers?$/i.test(m))).toBe(true);
    const post = options().filter({ hasText: 'Spring otter count 2026' });
    expect(await post.locator('[part=meta]').textContent()).toMatch(/^post.*2026/);
    expect(await post.locator('time').getAttribute('datetime')).toBe('2026-04-12');
    expect(await status().textContent()).toBe(`${expected.results.length} results`);
  });

  it('says so when nothing matches', async () => {
    await typeQuery('qqqqqqqq');
    await expect.poll(() => status().textContent()).toBe('No results for “qqqqqqqq”');
    expect(await options().count()).toBe(0);
  });

  it('shows "Showing results for" with the server’s suggestion', async () => {
    const expected = await api({ q: 'beavr' });
    expect(expected.suggestion).toBe('beaver');
    await typeQuery('beavr');
    await expect.poll(() => status().textContent()).toBe('Showing results for beaver');
    expect(await page.locator('site-search [part=status] b').textContent()).toBe('beaver');
  });

  it('completes a word typed past its stem, without saying it corrected anything', async () => {
    // "Photographing" and "photographers" are indexed as their stem photograph, which photographi* does not start.
    const expected = await searchFor('photographi');
    expect(expected.suggestion).toBeUndefined();
    expect(expected.results.map((r) => r.title)).toEqual(['Photographing otters']);
    // A count, not "Showing results for …".
    expect(await status().textContent()).toBe('1 result');
  });

  it('appends the next page with "More results" (offset)', async () => {
    const all = await api({ q: 'otter', limit: '25' });
    expect(all.results.length).toBeGreaterThan(8);
    await searchFor('otter');
    expect(await status().textContent()).toBe('8+ results');
    const offsets: string[] = [];
    page.on('request', (r) => r.url().includes('/api/search') && offsets.push(new URL(r.url()).searchParams.get('offset') ?? ''));
    await more().click();
    await expect.poll(titles).toEqual(all.results.map((r) => r.title));
    expect(offsets).toEqual(['8']);
    expect(await more().isHidden()).toBe(true);
    const ids = await options().evaluateAll((els) => els.map((el) => el.id));
    expect(new Set(ids).size).toBe(ids.length);
    // Focus stayed in the box, so the keyboard keeps working on the longer list.
    await page.keyboard.press('ArrowUp');
    expect(await input().getAttribute('aria-activedescendant')).toBe(ids.at(-1));
  });

  it('keyboard: Tab to "More results", Enter, and the first new result is active', async () => {
    await searchFor('otter');
    for (let i = 0; i < 4; i++) await page.keyboard.press('Tab'); // the chips All, doc, post, then the button
    expect(await page.evaluate(() => document.querySelector('site-search')!.shadowRoot!.activeElement?.getAttribute('part'))).toBe('more');
    const shown = optionUrls(await api({ q: 'otter', limit: '8' })).length;
    await page.keyboard.press('Enter');
    await expect.poll(() => input().getAttribute('aria-activedescendant')).toBe(`option-${shown}`);
    expect(await input().getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('ArrowUp');
    expect(await input().getAttribute('aria-activedescendant')).toBe(`option-${shown - 1}`);
  });

  it('filters by type with the chips', async () => {
    await searchFor('otter');
    const types: (string | null)[] = [];
    page.on('request', (r) => r.url().includes('/api/search') && types.push(new URL(r.url()).searchParams.get('type')));
    await chip('post').click();
    const posts = await api({ q: 'otter', limit: '8', type: 'post' });
    await expect.poll(titles).toEqual(posts.results.map((r) => r.title));
    expect(posts.results.every((r) => r.type === 'post')).toBe(true);
    expect(await chip('post').getAttribute('aria-pressed')).toBe('true');
    expect(await chip('all').getAttribute('aria-pressed')).toBe('false');
    await chip('doc').click();
    const docs = await api({ q: 'otter', limit: '8', type: 'doc' });
    await expect.poll(titles).toEqual(docs.results.map((r) => r.title));
    await chip('all').click();
    const all = await api({ q: 'otter', limit: '8' });
    expect(all.results).toHaveLength(8);
    await expect.poll(() => options().count()).toBe(optionUrls(all).length);
    expect(types).toEqual(['post', 'doc', null]);
  });
});

describe('keyboard and ARIA combobox pattern', () => {
  it('moves the active option with ↑/↓ and Enter opens it', async () => {
    const expected = await searchFor('otter');
    const active = () => input().getAttribute('aria-activedescendant');
    const selected = () => page.locator('site-search [role=option][aria-selected=true]').evaluateAll((els) => els.map((el) => el.id));
    expect(await input().getAttribute('aria-controls')).toBe(await page.locator('site-search [role=listbox]').getAttribute('id'));
    expect(await active()).toBeNull();
    await page.keyboard.press('ArrowDown');
    expect([await active(), await selected()]).toEqual(['option-0', ['option-0']]);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect([await active(), await selected()]).toEqual(['option-2', ['option-2']]);
    await page.keyboard.press('ArrowUp');
    expect([await active(), await selected()]).toEqual(['option-1', ['option-1']]);
    await Promise.all([page.waitForURL(optionUrls(expected)[1]!), page.keyboard.press('Enter')]);
  });

  it('lists a page\'s other matching sections under it, each an option that opens its heading', async () => {
    const expected = await searchFor('rivers coasts');
    const habitat = expected.results.find((r) => r.title === 'Habitat')!;
    expect(habitat.sections!.map((s) => s.heading)).toEqual(['Rivers and lakes', 'Coastal waters']);
    const rows = options();
    const index = optionUrls(expected).indexOf(habitat.sections![1]!.url);
    const sub = rows.nth(index);
    expect(await sub.getAttribute('part')).toBe('result section-result');
    expect(await sub.locator('[part=section]').textContent()).toBe('Coastal waters');
    expect(await sub.locator('[part=snippet] mark').allTextContents()).toEqual(['coasts']);
    for (let i = 0; i <= index; i++) await page.keyboard.press('ArrowDown');
    expect(await input().getAttribute('aria-activedescendant')).toBe(`option-${index}`);
    await Promise.all([page.waitForURL(habitat.sections![1]!.url), page.keyboard.press('Enter')]);
    expect(new URL(page.url()).hash).toBe('#coastal-waters');
  });

  it('wraps around at both ends', async () => {
    const expected = await searchFor('otter');
    await page.keyboard.press('ArrowUp');
    expect(await input().getAttribute('aria-activedescendant')).toBe(`option-${optionUrls(expected).length - 1}`);
    await page.keyboard.press('ArrowDown');
    expect(await input().getAttribute('aria-activedescendant')).toBe('option-0');
  });

  it('fires a cancelable site-search:select with the result before navigating', async () => {
    const expected = await searchFor('otter');
    await page.evaluate(() => {
      document.addEventListener('site-search:select', (e) => {
        e.preventDefault();
        (window as unknown as { chosen: unknown }).chosen = (e as CustomEvent).detail;
      });
    });
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const chosen = await page.evaluate(() => (window as unknown as { chosen: unknown }).chosen);
    expect(chosen).toEqual({ result: expected.results[0], url: expected.results[0]!.url });
    // Still on the search page, whose box keeps its query in ?q=.
    expect(page.url()).toBe(`${origin}/?q=otter`);
  });

  it('navigates on click and lands on the result\'s page: a 200 showing that document', async () => {
    const expected = await searchFor('otter');
    const target = expected.results[2]!;
    const row = options().filter({ has: page.locator('[part=title]', { hasText: target.title }) });
    const [response] = await Promise.all([page.waitForEvent('response', (r) => r.url() === target.url), row.click()]);
    await page.waitForURL(target.url);
    expect(response.status()).toBe(200);
    await expect.poll(() => page.locator('h1').textContent()).toBe(target.title);
    // And the page links back to the search.
    await Promise.all([page.waitForURL(`${origin}/`), page.getByRole('link', { name: 'Back to search' }).click()]);
  });

  it('Escape closes the list, a second Escape clears the box', async () => {
    await searchFor('otter');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Escape');
    expect(await input().getAttribute('aria-expanded')).toBe('false');
    expect(await input().getAttribute('aria-activedescendant')).toBeNull();
    expect(await page.locator('site-search [part=panel]').isHidden()).toBe(true);
    expect(await input().inputValue()).toBe('otter');
    // ↓ reopens what was there.
    await page.keyboard.press('ArrowDown');
    expect(await input().getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    expect(await input().inputValue()).toBe('');
  });

  it('closes when focus leaves the element', async () => {
    await searchFor('otter');
    await page.locator('h1').click();
    await expect.poll(() => input().getAttribute('aria-expanded')).toBe('false');
  });

  it('/ and Ctrl+K focus the box, but / typed in another field stays there', async () => {
    const focused = () => page.evaluate(() => document.querySelector('site-search')!.shadowRoot!.activeElement?.getAttribute('part') ?? null);
    expect(await focused()).toBeNull();
    await page.keyboard.press('/');
    expect(await focused()).toBe('input');
    expect(await input().inputValue()).toBe('');
    await page.locator('h1').click();
    expect(await focused()).toBeNull();
    await page.keyboard.press('Control+k');
    expect(await focused()).toBe('input');
    await page.evaluate(() => document.body.append(Object.assign(document.createElement('input'), { id: 'other' })));
    await page.locator('#other').click();
    await page.keyboard.type('a/b');
    expect(await page.locator('#other').inputValue()).toBe('a/b');
    expect(await focused()).toBeNull();
  });
});

describe('safe rendering', () => {
  it('renders a hostile document as text: no element from its markup, and its javascript: URL kept on the site', async () => {
    const expected = await searchFor('hostile');
    // The server never answers a URL off the site (docs/security.md, item 9): the javascript: pattern becomes a path.
    // The element's own refusal of javascript: links is the forged-response test below.
    expect(expected.results[0]!.url).toMatch(new RegExp(`^${origin.replace(/[.]/g, '\\.')}/javascript:`));
    expect(expected.results[0]!.snippet).toContain('&lt;script&gt;');
    const result = options().first();
    expect(await result.locator('[part=title]').textContent()).toBe('<img src=x onerror="window.__pwned=2"> Hostile page');
    const snippet = await result.locator('[part=snippet]').textContent();
    expect(snippet).toContain('<script>window.__pwned=1</script>');
    expect(snippet).toContain('<img src=x onerror="window.__pwned=1">');
    expect(await result.locator('[part=snippet] mark').allTextContents()).toEqual(['hostile']);
    expect(await page.locator('site-search img, site-search script').count()).toBe(0);
    for (const href of await page.locator('site-search a').evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href))) {
      expect(new URL(href).origin).toBe(origin);
    }
    await page.screenshot({ path: `${ARTIFACTS}hostile-light.png` });
    await result.click();
    await page.waitForTimeout(200);
    expect(new URL(page.url()).origin).toBe(origin);
    expect(await pwned()).toBeUndefined();
  });

  it('treats a forged response as text too: only <mark> becomes markup, obfuscated javascript: URLs are not links', async () => {
    await page.route('**/api/search?**', (route) =>
      route.fulfill({
        json: {
          query: 'forged',
          results: [
            {
              title: 'Forged',
              url: 'java\tscript:window.__pwned=4',
              type: 'doc',
              date: '',
              tags: '',
              emoji: '',
              snippet: '<img src=x onerror="window.__pwned=3"><mark>forged</mark> &lt;b&gt;bold&lt;/b&gt; &amp;lt; <mark><mark>x</mark></mark> </mark>',
              score: -1,
              section: { heading: 'Evil', url: ' javascript:window.__pwned=5' },
            },
            { title: 'Fine', url: '/docs/fine', type: 'doc', date: '', tags: '', emoji: '', snippet: 'ok', score: -0.5 },
          ],
        },
      }),
    );
    await typeQuery('forged');
    await expect.poll(() => options().count()).toBe(2);
    const snippet = options().first().locator('[part=snippet]');
    expect(await snippet.textContent()).toBe('<img src=x onerror="window.__pwned=3">forged <b>bold</b> &lt; x ');
    expect(await snippet.locator('mark').allTextContents()).toEqual(['forged', 'x']);
    expect(await page.locator('site-search img, site-search b').count()).toBe(0);
    expect(await options().first().evaluate((el) => el.tagName)).toBe('SPAN');
    expect(await options().nth(1).getAttribute('href')).toBe('/docs/fine');
    await page.keyboard.press('Enter');
    await page.waitForTimeout(200);
    // Still on the search page (the box keeps its query in ?q=): nothing navigated.
    expect(page.url()).toBe(`${origin}/?q=forged`);
    expect(await pwned()).toBeUndefined();
  });
});

describe('requests: debounce, abort, stale answers, errors', () => {
  /** Holds the first request for "otter" for `ms`, then lets it through (if the page still wants it). */
  async function delayFirstOtter(ms: number): Promise<{ released: Promise<void> }> {
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let first = true;
    await page.route('**/api/search?**', async (route) => {
      if (first && new URL(route.request().url()).searchParams.get('q') === 'otter') {
        first = false;
        await new Promise((r) => setTimeout(r, ms));
        await route.continue().catch(() => {}); // already aborted by the page: nothing to continue
        release();
        return;
      }
      await route.continue();
    });
    return { released };
  }

  it('sends one request per pause in typing', async () => {
    const queries: string[] = [];
    page.on('request', (r) => r.url().includes('/api/search') && queries.push(new URL(r.url()).searchParams.get('q')!));
    await input().click();
    // When each keystroke happened, in the page: on a loaded machine one can come later than the debounce (120 ms).
    await input().evaluate((el: HTMLInputElement) => {
      const keys: Array<[string, number]> = ((window as any).__keys = []);
      el.addEventListener('input', () => keys.push([el.value, performance.now()]));
    });
    await page.keyboard.type('otter habitat', { delay: 20 });
    await expect.poll(() => options().count()).toBeGreaterThan(0);
    const keys: Array<[string, number]> = await page.evaluate(() => (window as any).__keys);
    // Only a value that stood for a debounce may be sent: the last, and any the typing paused after.
    const paused = keys.filter(([, at], i) => i === keys.length - 1 || keys[i + 1]![1] - at >= 100).map(([v]) => v);
    expect(queries.at(-1)).toBe('otter habitat');
    for (const q of queries) expect(paused).toContain(q);
    if (paused.length === 1) expect(queries).toEqual(['otter habitat']);
  });

  it('aborts the slow earlier request; the list shows the later query', async () => {
    const { released } = await delayFirstOtter(1200);
    const failed: string[] = [];
    page.on('requestfailed', (r) => failed.push(new URL(r.url()).searchParams.get('q')!));
    const later = await api({ q: 'otter habitat', limit: '8' });
    const earlier = await api({ q: 'otter', limit: '8' });
    expect(later.results.map((r) => r.title)).not.toEqual(earlier.results.map((r) => r.title));
    await typeQuery('otter');
    await page.waitForRequest((r) => r.url().includes('q=otter'));
    // The loading state while the first answer is pending.
    await expect.poll(() => status().textContent()).toBe('Searching…');
    expect(await page.locator('site-search [part=panel]').getAttribute('aria-busy')).toBe('true');
    await appendAtOnce(' habitat');
    await expect.poll(titles).toEqual(later.results.map((r) => r.title));
    await released;
    await page.waitForTimeout(100);
    expect(await titles()).toEqual(later.results.map((r) => r.title));
    expect(failed).toEqual(['otter']);
    expect(await page.locator('site-search [part=panel]').getAttribute('aria-busy')).toBeNull();
  });

  it('drops a stale answer that arrives after a newer one even when it is not aborted (sequence numbers)', async () => {
    // Take abort away, so only the sequence check stands between the slow answer and the list.
    await page.evaluate(() => {
      AbortController.prototype.abort = function () {};
    });
    const { released } = await delayFirstOtter(800);
    const answered: string[] = [];
    page.on('requestfinished', (r) => answered.push(new URL(r.url()).searchParams.get('q')!));
    const later = await api({ q: 'otter habitat', limit: '8' });
    await typeQuery('otter');
    await page.waitForRequest((r) => r.url().includes('q=otter'));
    await appendAtOnce(' habitat');
    await expect.poll(titles).toEqual(later.results.map((r) => r.title));
    await released;
    await expect.poll(() => answered).toEqual(['otter habitat', 'otter']);
    await page.waitForTimeout(100);
    expect(await titles()).toEqual(later.results.map((r) => r.title));
  });

  /** The `console.error` lines the page writes, as they come. */
  function consoleErrors(): string[] {
    const lines: string[] = [];
    page.on('console', (m) => m.type() === 'error' && !m.text().startsWith('Failed to load resource') && lines.push(m.text()));
    return lines;
  }

  it('a configuration error: the reader sees "Search is unavailable.", the console the server’s 400 message', async () => {
    const errors = consoleErrors();
    await page.locator('site-search').evaluate((el) => el.setAttribute('limit', '0'));
    await typeQuery('otter');
    await expect.poll(() => status().textContent()).toBe('Search is unavailable.');
    expect(await status().getAttribute('class')).toContain('error');
    expect(await options().count()).toBe(0);
    await expect.poll(() => errors).toEqual(['[site-search] Invalid limit']);
    await page.locator('site-search').evaluate((el) => {
      el.removeAttribute('limit');
      el.setAttribute('types', 'doc,post,nope');
    });
    await chip('nope').click();
    await expect.poll(() => errors).toEqual(['[site-search] Invalid limit', '[site-search] Invalid type. One of: doc, post']);
    expect(await status().textContent()).toBe('Search is unavailable.');
    expect(await page.locator('site-search').evaluate((el) => el.shadowRoot!.textContent)).not.toContain('Invalid');
    await page.screenshot({ path: `${ARTIFACTS}error-light.png` });
  });

  it('a missing index: the visitor message, and the operator’s detail (run the indexer) in the console', async () => {
    // A real 500 from the real handler: a second dev server (with CORS, as the box's page is on the first), whose
    // index table is dropped once it has started, as when a deploy forgot `site-search index`.
    const broken = makeProject({ 'search.config.json': JSON.stringify({ database: 'broken', sources: [{ dir: 'docs', type: 'doc', url: '/docs/:slug' }] }), 'docs/a.md': '# A\n\nAn otter.\n' });
    const { child, url } = await startDevServer(['--config', 'search.config.json', '--port', '0', '--cors'], broken.dir);
    try {
      const db = new DatabaseSync(`${broken.dir}/.site-search/search.db`);
      db.exec('DROP TABLE search_index');
      db.close();
      const errors = consoleErrors();
      await page.locator('site-search').evaluate((el, endpoint) => el.setAttribute('endpoint', endpoint), `${url}/api/search`);
      await typeQuery('otter');
      await expect.poll(() => status().textContent()).toBe('Search is unavailable.');
      await expect.poll(() => errors.join('\n')).toMatch(/^\[site-search\] Search index not found.*npx site-search index/);
    } finally {
      child.kill('SIGTERM');
      broken.cleanup();
    }
  });

  it('a search longer than the server allows is the reader’s to fix, and says so', async () => {
    const errors = consoleErrors();
    await typeQuery('otter '.repeat(20));
    await expect.poll(() => status().textContent()).toBe('That search is too long: shorten it.');
    expect(errors).toEqual([]);
  });

  it('reports an unreachable endpoint to the reader as unavailable, with the path in the console', async () => {
    const errors = consoleErrors();
    await page.route('**/api/search?**', (route) => route.abort('connectionrefused'));
    await typeQuery('otter');
    await expect.poll(() => status().textContent()).toBe('Search is unavailable.');
    await expect.poll(() => errors).toEqual([expect.stringMatching(/^\[site-search\] Search is unavailable: the endpoint \/api\/search could not be reached/)]);
  });

  it('names the path in the console when nothing answers there (a 404 page: the route is not where the box asks)', async () => {
    const errors = consoleErrors();
    await page.route('**/api/search?**', (route) => route.fulfill({ status: 404, contentType: 'text/html', body: '<h1>404: Not Found</h1>' }));
    await typeQuery('otter');
    await expect.poll(() => errors).toEqual(['[site-search] Search failed: no search endpoint at /api/search (HTTP 404)']);
    expect(await status().textContent()).toBe('Search is unavailable.');
    await page.unroute('**/api/search?**');
    await page.route('**/api/search?**', (route) => route.fulfill({ status: 502, contentType: 'text/html', body: 'Bad gateway' }));
    await page.keyboard.type('s');
    await expect.poll(() => errors.at(-1)).toBe('[site-search] Search failed (HTTP 502)');
  });
});

describe('recent searches (issue 37, item 2)', () => {
  const recent = () => page.locator('site-search [part~=recent]');
  const stored = () => page.evaluate(() => JSON.parse(localStorage.getItem('site-search:recent') ?? 'null') as string[] | null);
  /** Searches `query`, chooses the first result without leaving the page (a listener cancels the navigation), clears. */
  async function chooseFirst(query: string): Promise<void> {
    await input().fill('');
    await searchFor(query);
    await page.keyboard.press('Enter');
    await input().fill('');
  }

  it('a chosen search is listed when the box is focused and empty, after a reload too', async () => {
    await input().click();
    expect(await page.locator('site-search [part=panel]').isHidden()).toBe(true);
    const expected = await searchFor('otter');
    await Promise.all([page.waitForURL(optionUrls(expected)[0]!), page.keyboard.press('Enter')]);
    await page.goto(`${origin}/`);
    await input().click();
    await expect.poll(() => recent().allTextContents()).toEqual(['otter✕']);
    expect(await status().textContent()).toBe('Recent searches');
    expect(await input().getAttribute('aria-expanded')).toBe('true');
    await page.reload();
    await input().click();
    await expect.poll(() => recent().allTextContents()).toEqual(['otter✕']);
    // ↓ and Enter search it again.
    await page.keyboard.press('ArrowDown');
    expect(await input().getAttribute('aria-activedescendant')).toBe('option-0');
    await page.keyboard.press('Enter');
    expect(await input().inputValue()).toBe('otter');
    await expect.poll(titles).toEqual(expected.results.map((r) => r.title));
  });

  it('newest first, once each, bounded by the recent attribute; Delete and ✕ remove one', async () => {
    await page.locator('site-search').evaluate((el) => {
      el.setAttribute('recent', '3');
      el.addEventListener('site-search:select', (e) => e.preventDefault());
    });
    for (const q of ['otter', 'rivers', 'kelp', 'Otter', 'beaver']) await chooseFirst(q);
    expect(await stored()).toEqual(['beaver', 'Otter', 'kelp']);
    await expect.poll(() => recent().allTextContents()).toEqual(['beaver✕', 'Otter✕', 'kelp✕']);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Delete');
    await expect.poll(() => recent().allTextContents()).toEqual(['beaver✕', 'kelp✕']);
    expect(await input().getAttribute('aria-activedescendant')).toBe('option-1');
    expect(await stored()).toEqual(['beaver', 'kelp']);
    await recent().nth(1).locator('[part=remove]').click();
    await page.locator('site-search [part~=recent] [part=remove]').click();
    expect(await stored()).toBeNull();
    expect(await input().getAttribute('aria-expanded')).toBe('false');
    // The box kept the focus through the clicks.
    expect(await page.evaluate(() => document.querySelector('site-search')!.shadowRoot!.activeElement?.getAttribute('part'))).toBe('input');
  });

  it('recent="0" turns them off: nothing stored, nothing shown', async () => {
    await page.locator('site-search').evaluate((el) => {
      el.setAttribute('recent', '0');
      el.addEventListener('site-search:select', (e) => e.preventDefault());
    });
    await chooseFirst('otter');
    expect(await stored()).toBeNull();
    await page.evaluate(() => localStorage.setItem('site-search:recent', '["rivers"]'));
    await page.locator('h1').click();
    await input().click();
    expect(await page.locator('site-search [part=panel]').isHidden()).toBe(true);
  });

  it('unreadable storage shows nothing and breaks nothing', async () => {
    await page.evaluate(() => localStorage.setItem('site-search:recent', '{not json'));
    await input().click();
    expect(await page.locator('site-search [part=panel]').isHidden()).toBe(true);
    await searchFor('otter');
  });
});

describe('shareable searches (issue 37, item 4)', () => {
  it('the query is written to ?q= as the reader types (no new history entries) and searched again on reload', async () => {
    const length = await page.evaluate(() => history.length);
    await searchFor('otter');
    await expect.poll(() => new URL(page.url()).search).toBe('?q=otter');
    await page.keyboard.type(' habitat');
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('otter habitat');
    expect(await page.evaluate(() => history.length)).toBe(length);
    const expected = await api({ q: 'otter habitat', limit: '8' });
    await page.reload();
    await page.waitForFunction(() => customElements.get('site-search'));
    expect(await input().inputValue()).toBe('otter habitat');
    await expect.poll(titles).toEqual(expected.results.map((r) => r.title));
    // Clearing the box takes the parameter out; other parameters stay. (No hash here: the dev page searches a hash.)
    await page.goto(`${origin}/?lang=x&q=otter`);
    await expect.poll(() => options().count()).toBeGreaterThan(0);
    await input().fill('');
    await expect.poll(() => page.url()).toBe(`${origin}/?lang=x`);
  });

  it('a link opens on the search, whatever parameter the box is given', async () => {
    await page.goto(`${origin}/?search=beaver%20dams`);
    await page.evaluate(() => {
      const box = Object.assign(document.createElement('site-search'), { id: 'named' });
      box.setAttribute('query-param', 'search');
      document.querySelector('main')!.append(box);
    });
    expect(await page.locator('#named [part=input]').inputValue()).toBe('beaver dams');
    const expected = await api({ q: 'beaver dams', limit: '8' });
    await expect.poll(() => page.locator('#named [part=title]').allTextContents()).toEqual(expected.results.map((r) => r.title));
  });

  it('without query-param the URL is left alone', async () => {
    await page.evaluate(() => document.querySelector('site-search')!.removeAttribute('query-param'));
    await searchFor('otter');
    await page.waitForTimeout(200);
    expect(page.url()).toBe(`${origin}/`);
  });

  it('inline: the list is part of the page and stays open when focus leaves (a full results page)', async () => {
    await page.locator('site-search').evaluate((el) => el.setAttribute('inline', ''));
    await searchFor('otter');
    await page.locator('h1').click();
    await page.waitForTimeout(100);
    expect(await input().getAttribute('aria-expanded')).toBe('true');
    expect(await page.locator('site-search [part=panel]').evaluate((el) => getComputedStyle(el).position)).toBe('static');
  });
});

describe('highlight on arrival (issue 37, item 3)', () => {
  const marks = () => page.locator('mark[data-site-search]').allTextContents();

  it('with highlight, result links carry the words before the anchor; the landing page marks them, its anchor intact', async () => {
    await page.locator('site-search').evaluate((el) => el.setAttribute('highlight', ''));
    const expected = await searchFor('rivers');
    const section = expected.results[0]!.section!.url;
    const href = await options().first().getAttribute('href');
    const link = new URL(href!);
    expect([link.origin + link.pathname, link.searchParams.get('highlight'), link.hash]).toEqual([section.replace(/#.*/, ''), 'rivers', '#rivers-and-lakes']);
    await Promise.all([page.waitForURL(href!), page.keyboard.press('Enter')]);
    // The dev server's page is the indexed text, the heading "Rivers and lakes" included.
    await expect.poll(marks).toEqual(['Rivers', 'River', 'rivers']);
    expect(await page.evaluate(() => location.hash)).toBe('#rivers-and-lakes');
    // The marked text is the page's text: nothing added, nothing lost.
    expect(await page.locator('main').textContent()).toContain('River otters share quiet rivers with beaver dams');
  });

  it('a named parameter, and a corrected query highlights the correction', async () => {
    await page.locator('site-search').evaluate((el) => el.setAttribute('highlight', 'hl'));
    await typeQuery('beavr');
    await expect.poll(() => status().textContent()).toBe('Showing results for beaver');
    expect(new URL((await options().first().getAttribute('href'))!).searchParams.get('hl')).toBe('beaver');
  });

  /** A long page on the dev server's origin that runs the real highlight script from it. */
  async function longPage(hash: string): Promise<void> {
    const filler = Array.from({ length: 80 }, (_, i) => `<p>Paragraph ${i} about nothing in particular.</p>`).join('');
    await page.route(`${origin}/long?**`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><main><h1 id="intro">Intro</h1>${filler}<h2 id="kelp">Kelp forests</h2><p>Sea otters rest in kelp.</p>${filler}</main>
<script type="module">import { highlightSearchTerms } from '/site-search-highlight.js'; window.__marks = highlightSearchTerms().length;</script>`,
      }),
    );
    await page.goto(`${origin}/long?highlight=kelp${hash}`);
    await page.waitForFunction(() => (window as unknown as { __marks?: number }).__marks !== undefined);
  }
  const inView = (selector: string) =>
    page.locator(selector).first().evaluate((el) => {
      const r = el.getBoundingClientRect();
      return r.top >= 0 && r.bottom <= innerHeight;
    });

  it('scrolls to the first mark on a long page', async () => {
    await longPage('');
    expect(await marks()).toEqual(['Kelp', 'kelp']);
    expect(await inView('mark[data-site-search]')).toBe(true);
    expect(await page.evaluate(() => scrollY)).toBeGreaterThan(0);
  });

  it('leaves the scroll to the page’s anchor when the link has one', async () => {
    await longPage('#intro');
    expect(await marks()).toEqual(['Kelp', 'kelp']);
    // The browser put the anchored heading at the top; the marks further down did not move it.
    expect(await page.locator('#intro').evaluate((el) => Math.round(el.getBoundingClientRect().top))).toBe(0);
    expect(await inView('mark[data-site-search]')).toBe(false);
  });
});

describe('result links open on the page\'s origin (issue 55, item 1)', () => {
  /** The endpoint's real answer for `q`, its URLs moved onto `linkOrigin`, as a framework that misreports the request builds them. */
  async function answerOn(linkOrigin: string, q: string): Promise<SearchResponse> {
    const answer = await api({ q, limit: '8' });
    const move = (url: string) => linkOrigin + new URL(url).pathname + new URL(url).hash;
    return {
      ...answer,
      results: answer.results.map((r) => ({ ...r, url: move(r.url), ...(r.section ? { section: { ...r.section, url: move(r.section.url) } } : {}), ...(r.sections ? { sections: r.sections.map((x) => ({ ...x, url: move(x.url) })) } : {}) })),
    };
  }

  it('an endpoint on the page\'s origin: links on localhost without the port (Astro 5.18\'s) go to the same path on the page\'s origin, open, and a click report names the URL the endpoint gave', async () => {
    const given = await answerOn('http://localhost', 'rivers');
    const reports: string[] = [];
    await page.route('**/api/search**', (route) =>
      route.request().method() === 'POST'
        ? (reports.push(route.request().postData()!), route.fulfill({ status: 204 }))
        : route.fulfill({ json: given, headers: { 'X-Search-Analytics': 'on' } }),
    );
    await typeQuery('rivers');
    await expect.poll(() => options().count()).toBe(optionUrls(given).length);
    const hrefs = await options().evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual(optionUrls(given).map((url) => origin + new URL(url).pathname + new URL(url).hash));
    const [response] = await Promise.all([page.waitForResponse((r) => r.request().isNavigationRequest()), options().first().click()]);
    // The request carries no #fragment.
    expect([response.url(), response.status()]).toEqual([hrefs[0]!.replace(/#.*/, ''), 200]);
    await expect.poll(() => reports.length).toBe(1);
    expect(JSON.parse(reports[0]!)).toMatchObject({ q: 'rivers', url: optionUrls(given)[0], rank: 1 });
  });

  it('an endpoint on another origin (a Worker answering a static site) keeps its absolute links', async () => {
    const elsewhere = 'https://search.example.net';
    const given = await answerOn('https://docs.example.net', 'rivers');
    await page.route(`${elsewhere}/api/search**`, (route) => route.fulfill({ json: given, headers: { 'Access-Control-Allow-Origin': '*' } }));
    await page.locator('site-search').evaluate((el, endpoint) => el.setAttribute('endpoint', endpoint), `${elsewhere}/api/search`);
    await typeQuery('rivers');
    await expect.poll(() => options().count()).toBe(optionUrls(given).length);
    expect(await options().evaluateAll((links) => links.map((a) => a.getAttribute('href')))).toEqual(optionUrls(given));
  });
});

describe('every language (issue 37, item 5)', () => {
  /** A second box in a block with its own `lang` (and `dir`, when given), on the dev page. */
  async function boxIn(lang: string, dir?: string): Promise<string> {
    await page.evaluate(
      ([lang, dir]) => {
        const block = Object.assign(document.createElement('div'), { lang });
        if (dir) block.dir = dir;
        block.innerHTML = '<site-search endpoint="/api/search" types="doc,post" hotkey="none"></site-search>';
        document.querySelector('main')!.append(block);
      },
      [lang, dir] as const,
    );
    return `[lang="${lang}"] site-search`;
  }

  it('an English page loads no translation', async () => {
    const loaded: string[] = [];
    page.on('request', (r) => r.url().includes('/ui-locales/') && loaded.push(r.url()));
    await page.reload();
    await searchFor('otter');
    expect(loaded).toEqual([]);
  });

  it('a German page shows German strings, loading only the German file', async () => {
    const loaded: string[] = [];
    page.on('request', (r) => r.url().includes('/ui-locales/') && loaded.push(new URL(r.url()).pathname));
    const box = await boxIn('de');
    const input = page.locator(`${box} [part=input]`);
    await expect.poll(() => input.getAttribute('placeholder')).toBe('Suchen');
    expect(loaded).toEqual(['/ui-locales/de.js']);
    expect(await input.getAttribute('aria-label')).toBe('Suchen');
    expect(await page.locator(`${box} [part=chip]`).allTextContents()).toEqual(['Alle', 'doc', 'post']);
    expect(await page.locator(`${box} [role=listbox]`).getAttribute('aria-label')).toBe('Suchergebnisse');
    await input.click();
    await page.keyboard.type('qqqqqqqq');
    await expect.poll(() => page.locator(`${box} [part=status]`).textContent()).toBe('Keine Ergebnisse für „qqqqqqqq“');
    await input.fill('otter');
    await expect.poll(() => page.locator(`${box} [part=status]`).textContent()).toBe('8+ Ergebnisse');
    expect(await page.locator(`${box} [part=more]`).textContent()).toBe('Weitere Ergebnisse');
  });

  it('the strings property replaces any string, over the translation', async () => {
    const box = await boxIn('fr');
    const input = page.locator(`${box} [part=input]`);
    await expect.poll(() => input.getAttribute('placeholder')).toBe('Rechercher');
    await page.locator(box).evaluate((el: SiteSearchElement) => {
      el.strings = { noResults: 'Rien sur « {query} », désolé', placeholder: 'Chercher dans la doc' };
    });
    expect(await input.getAttribute('placeholder')).toBe('Chercher dans la doc');
    await input.click();
    await page.keyboard.type('qqqqqqqq');
    await expect.poll(() => page.locator(`${box} [part=status]`).textContent()).toBe('Rien sur « qqqqqqqq », désolé');
    expect((await page.locator(box).evaluate((el: SiteSearchElement) => el.strings)).moreResults).toBe('Plus de résultats');
  });

  it('an Arabic page renders right to left, even without a dir of its own', async () => {
    const box = await boxIn('ar');
    const input = page.locator(`${box} [part=input]`);
    await expect.poll(() => input.getAttribute('placeholder')).toBe('بحث');
    expect(await input.evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
    // The icon's room (2.4em) is on the right, the hint's (2.9em) on the left.
    const padding = await input.evaluate((el) => [getComputedStyle(el).paddingRight, getComputedStyle(el).paddingLeft]);
    expect(padding.map((p) => Math.round(parseFloat(p)))).toEqual([38, 46]);
    await input.fill('otter');
    await expect.poll(() => page.locator(`${box} [part=status]`).textContent()).toBe('عدد النتائج: 8+');
    // A result's title starts at the right and its type and date sit to the left of it.
    const first = page.locator(`${box} [role=option]`).first();
    const [title, meta] = await Promise.all([first.locator('[part=title]').boundingBox(), first.locator('[part=meta]').boundingBox()]);
    expect(meta!.x + meta!.width).toBeLessThan(title!.x);
    await page.screenshot({ path: `${ARTIFACTS}search-rtl.png` });
  });

  it('a Hebrew block with dir="rtl" is right to left by inheritance', async () => {
    const box = await boxIn('he', 'rtl');
    const input = page.locator(`${box} [part=input]`);
    await expect.poll(() => input.getAttribute('placeholder')).toBe('חיפוש');
    expect(await input.evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
    expect(await page.locator(box).evaluate((el) => el.shadowRoot!.querySelector('[dir]'))).toBeNull();
  });
});

describe('filters with counts (issue 37, item 1)', () => {
  type Facets = NonNullable<SearchResponse['facets']>;
  const tagChip = (name: string) => page.locator('site-search [part=chip][data-value]', { hasText: new RegExp(`^${name} \\d+$`, 'i') });
  /** Each chip's text as the box shows it: its name and its count. */
  const chipTexts = (group: 'type' | 'tag') => page.locator('site-search .chips').nth(group === 'type' ? 0 : 1).locator('[part=chip]').allTextContents();
  const expectedChips = (facets: Facets, types = ['doc', 'post']) => ({
    type: [`All ${facets.type!.reduce((n, c) => n + c.count, 0)}`, ...types.map((t) => `${t} ${facets.type!.find((c) => c.value === t)?.count ?? 0}`)],
    tag: facets.tags!.map((c) => `${c.value} ${c.count}`),
  });
  const withFacets = async (limit?: string) =>
    page.evaluate((limit) => {
      const box = document.querySelector('site-search')!;
      box.setAttribute('facets', '');
      if (limit) box.setAttribute('limit', limit);
    }, limit);

  it('shows the types and tags of the matches with their counts; a tag chosen filters, and the counts change', async () => {
    await withFacets();
    const all = await api({ q: 'otter', limit: '8', facets: 'type,tags' });
    // The fixture's tags, counted by hand: both posts in the Pacific, two in the UK, two field guides, two on behaviour.
    expect(all.facets!.tags).toEqual([
      { value: 'behaviour', count: 2 },
      { value: 'fieldwork', count: 2 },
      { value: 'pacific', count: 2 },
      { value: 'uk', count: 2 },
      { value: 'survey', count: 1 },
    ]);
    await searchFor('otter');
    await expect.poll(() => chipTexts('tag')).toEqual(expectedChips(all.facets!).tag);
    expect(await chipTexts('type')).toEqual(expectedChips(all.facets!).type);

    const asked: string[] = [];
    page.on('request', (r) => r.url().includes('/api/search') && asked.push(new URL(r.url()).searchParams.getAll('tags').join(',')));
    await tagChip('pacific').click();
    const pacific = await api({ q: 'otter', limit: '8', facets: 'type,tags', tags: 'pacific' });
    expect(pacific.results.map((r) => r.title).sort()).toEqual(['A week with sea otters', 'Why otters hold hands']);
    await expect.poll(titles).toEqual(pacific.results.map((r) => r.title));
    await expect.poll(() => chipTexts('type')).toEqual(expectedChips(pacific.facets!).type);
    expect(await chipTexts('tag')).toEqual(['pacific 2', 'behaviour 1']);
    expect(await tagChip('pacific').getAttribute('aria-pressed')).toBe('true');
    expect(asked).toEqual(['pacific']);

    // The chosen tag stays visible and is removed by choosing it again.
    await tagChip('pacific').click();
    await expect.poll(titles).toEqual(all.results.map((r) => r.title));
    expect(await tagChip('pacific').getAttribute('aria-pressed')).toBe('false');
    expect(asked).toEqual(['pacific', '']);
  });

  it('every tag chip finds what it counts: no comma, one café, nothing invisible (issue 44, item 2)', async () => {
    await withFacets();
    await searchFor('stoat');
    // The comma tag is left out at index time; the two cafés are one; invisible characters are gone.
    await expect.poll(() => chipTexts('tag')).toEqual(['café 2', 'reversed 1', 'zerowidth 1', '部署指南 1']);
    for (const [value, titles_] of [
      ['café', ['Stoats in summer', 'Stoats in winter']],
      ['部署指南', ['Stoats in winter']],
      ['zerowidth', ['Stoats in winter']],
    ] as const) {
      await page.locator(`site-search [part=chip][data-value="${value}"]`).click();
      await expect.poll(async () => (await titles()).sort()).toEqual(titles_);
      expect(await status().textContent()).not.toContain('No results');
      await page.locator(`site-search [part=chip][data-value="${value}"]`).click();
      await expect.poll(async () => (await titles()).length).toBe(2);
    }
  });

  it('a chosen tag and type survive "More results"; the keyboard reaches and toggles the chips', async () => {
    await withFacets('1');
    await typeQuery('otter');
    await expect.poll(async () => (await titles()).length).toBe(1);
    // Tab from the box: All, doc, post, then the tags, most frequent first (behaviour, fieldwork, pacific, uk…).
    for (let i = 0; i < 7; i++) await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.querySelector('site-search')!.shadowRoot!.activeElement?.getAttribute('data-value'))).toBe('uk');
    await page.keyboard.press('Enter');
    await expect.poll(() => tagChip('uk').getAttribute('aria-pressed')).toBe('true');
    await chip('post \\d+').click();
    const uk = await api({ q: 'otter', limit: '25', tags: 'uk', type: 'post' });
    expect(uk.results.length).toBe(2);
    await expect.poll(titles).toEqual(uk.results.slice(0, 1).map((r) => r.title));
    const paged: string[] = [];
    page.on('request', (r) => r.url().includes('/api/search') && paged.push(new URL(r.url()).search));
    await more().click();
    await expect.poll(titles).toEqual(uk.results.map((r) => r.title));
    expect(paged).toHaveLength(1);
    const params = new URLSearchParams(paged[0]);
    expect([params.get('offset'), params.getAll('tags'), params.get('type')]).toEqual(['1', ['uk'], 'post']);
    expect(await tagChip('uk').getAttribute('aria-pressed')).toBe('true');
    expect(await chip('post \\d+').getAttribute('aria-pressed')).toBe('true');
  });
});

describe('accessibility: axe-core finds no violation in any state (issue 37)', () => {
  const violations = () => axeViolations(page, 'site-search');

  it('empty, focused, results with an active option, no results', async () => {
    expect(await violations()).toEqual([]);
    await input().click();
    expect(await violations()).toEqual([]);
    await searchFor('rivers coasts');
    await page.keyboard.press('ArrowDown');
    expect(await violations()).toEqual([]);
    await input().fill('qqqqqqqq');
    await expect.poll(() => status().textContent()).toBe('No results for “qqqqqqqq”');
    expect(await violations()).toEqual([]);
  });

  it('typing (searching, busy), and the error state', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/search?**', async (route) => {
      await held;
      await route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"Search failed"}' });
    });
    await typeQuery('otter');
    await expect.poll(() => status().textContent()).toBe('Searching…');
    expect(await violations()).toEqual([]);
    release();
    await expect.poll(() => status().textContent()).toBe('Search is unavailable.');
    expect(await violations()).toEqual([]);
  });

  it('filters open: types and tags with counts, one chosen', async () => {
    await page.evaluate(() => document.querySelector('site-search')!.setAttribute('facets', 'type,tags'));
    await searchFor('otter');
    await expect.poll(() => page.locator('site-search [part=chip][data-value=pacific]').count()).toBe(1);
    await page.locator('site-search [part=chip][data-value=pacific]').click();
    await expect.poll(() => page.locator('site-search [part=chip][data-value=pacific]').getAttribute('aria-pressed')).toBe('true');
    await expect.poll(async () => (await titles()).length).toBe(2);
    expect(await violations()).toEqual([]);
  });

  it('recent searches shown, and a right-to-left box in Arabic', async () => {
    await page.evaluate(() => localStorage.setItem('site-search:recent', '["otter","rivers"]'));
    await input().click();
    await expect.poll(() => page.locator('site-search [part~=recent]').count()).toBe(2);
    await page.keyboard.press('ArrowDown');
    expect(await violations()).toEqual([]);
    await page.evaluate(() => {
      document.documentElement.lang = 'ar';
      document.querySelector('site-search')!.setAttribute('lang', 'ar');
    });
    await expect.poll(() => input().getAttribute('placeholder')).toBe('Search the content…');
    await input().fill('otter');
    await expect.poll(() => status().textContent()).toBe('عدد النتائج: 8+');
    expect(await violations()).toEqual([]);
  });
});

describe('screenshots', () => {
  it.each(['light', 'dark'] as const)('%s', async (colorScheme) => {
    await page.emulateMedia({ colorScheme });
    await searchFor('otter');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    // Cropped to the box and its open list, with a margin: this is the picture docs/ui-screenshot.png is taken from.
    const box = (await page.locator('site-search').boundingBox())!;
    const panel = (await page.locator('site-search [part=panel]').boundingBox())!;
    const clip = { x: box.x - 24, y: box.y - 16, width: box.width + 48, height: panel.y + panel.height - box.y + 40 };
    await page.screenshot({ path: `${ARTIFACTS}search-${colorScheme}.png`, clip });
    const background = await page.locator('site-search [part=panel]').evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(background).toBe(colorScheme === 'light' ? 'rgb(255, 255, 255)' : 'rgb(27, 30, 37)');
  });
});
