/**
 * Analytics end to end in a real browser: Debian's Chromium (playwright-core) against `site-search dev` (dist/cli.js)
 * with `analytics: true`. A search in the box and a click on its second result reach `site-search stats` as one click
 * at rank 2; a query holding `<script>` shows as text in the HTML report (`stats --html`) and at the dev server's
 * report path, and runs nothing.
 */
import { execFile, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalyticsStats } from '../../src/analytics/stats.js';
import { launchChromium } from '../helpers/chromium.js';
import { startDevServer } from '../helpers/dev-server.js';
import { makeProject } from '../helpers/project.js';
import { FIXTURE_FILES } from './fixture.js';

const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname;
const CLI = new URL('../../dist/cli.js', import.meta.url).pathname;
const run = promisify(execFile);

const config = JSON.parse(FIXTURE_FILES['search.config.json']!) as Record<string, unknown>;
// One option per result (no further section rows), so the second option is the second result.
const site = makeProject({ ...FIXTURE_FILES, 'search.config.json': JSON.stringify({ ...config, analytics: true, sections: 0 }) });
let server: ChildProcess;
let origin: string;
let browser: Browser;
let page: Page;

async function stats(...args: string[]): Promise<string> {
  return (await run(process.execPath, [CLI, 'stats', '--config', 'search.config.json', ...args], { cwd: site.dir })).stdout;
}

/** `stats --json` until `done` holds: the box's beacon and the write after it land a moment after the click. */
async function statsWhen(done: (s: AnalyticsStats) => boolean): Promise<AnalyticsStats> {
  for (let attempt = 0; ; attempt++) {
    const report = JSON.parse(await stats('--json')) as AnalyticsStats;
    if (done(report) || attempt === 40) return report;
    await new Promise((r) => setTimeout(r, 250));
  }
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  let started;
  [started, browser] = await Promise.all([startDevServer(['--config', 'search.config.json', '--port', '0'], site.dir), launchChromium()]);
  ({ child: server, url: origin } = started);
  page = await (await browser.newContext({ viewport: { width: 900, height: 900 } })).newPage();
});

afterAll(async () => {
  await browser?.close();
  server?.kill('SIGTERM');
  site.cleanup();
});

describe('search analytics in Chromium', () => {
  it('a click on the second result of a box search shows in site-search stats as one click at rank 2', async () => {
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => customElements.get('site-search'));
    await page.locator('site-search [part=input]').fill('otter');
    const options = page.locator('site-search [role=option]');
    await expect.poll(() => options.count()).toBeGreaterThan(2);
    const secondUrl = await options.nth(1).getAttribute('href');
    await Promise.all([page.waitForURL((url) => url.href !== `${origin}/`), options.nth(1).click()]);

    const report = await statsWhen((s) => s.clicks > 0);
    const otter = report.topQueries.find((q) => q.query === 'otter');
    expect(otter).toMatchObject({ searches: 1, clicks: 1, opened: [{ url: new URL(secondUrl!, origin).pathname, rank: 2, clicks: 1 }] });
    expect(report.clickRanks).toEqual([{ rank: 2, clicks: 1 }]);
    expect(await stats()).toMatch(/opened #2 \/\S+ ×1/);
  });

  it('a query holding <script> is text in the HTML report and at the dev server report path, and runs nothing', async () => {
    const hostile = '<script>window.__pwned=3</script><img src=x onerror=window.__pwned=4>';
    expect((await fetch(`${origin}/api/search?q=${encodeURIComponent(hostile)}`)).status).toBe(200);
    await statsWhen((s) => s.topQueries.some((q) => q.query === hostile.toLowerCase()));
    const file = join(site.dir, 'report.html');
    expect(await stats('--html', file)).toContain('report.html');
    const html = readFileSync(file, 'utf8');
    expect(html).not.toContain('<script');
    expect(html).toContain('&lt;script&gt;window.__pwned=3&lt;/script&gt;');

    for (const url of [`file://${file}`, `${origin}/_site-search/analytics`]) {
      await page.goto(url);
      const cells = await page.locator('td').allTextContents();
      expect(cells).toContain(hostile.toLowerCase());
      expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
      expect(await page.locator('script, img').count()).toBe(0);
      expect(await page.locator('svg').count()).toBe(3);
    }
    await page.screenshot({ path: join(ARTIFACTS, 'analytics-report.png'), fullPage: true });
  });
});
