/**
 * The oldest Starlight site-search supports (package.json `peerDependencies`: 0.32, with the Astro 5 it needs), in a
 * real app (test/frameworks/apps/starlight-oldest, installed from `npm pack`): `astro build` finishes, the endpoint
 * answers, and the frontmatter check, which cannot load a schema Starlight published as TypeScript before 0.42, is
 * skipped with one line instead of stopping the build (issue 45, item 1). Nothing is configured for origins, and a
 * result chosen in Starlight's search dialog opens on the host the reader used, which is not localhost (issue 55,
 * item 1: Astro 5.18 builds the endpoint's URLs on `http://localhost`). The newest end is starlight-node.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/chromium.js';
import { appDir, freePort, start, type RunningApp } from './harness.js';

const run = promisify(execFile);
/** The name Chromium reaches the app by (mapped to 127.0.0.1): a reader's host, not localhost. */
const READER_HOST = 'docs.example.test';
const env = Object.fromEntries(Object.entries({ ...process.env, ASTRO_TELEMETRY_DISABLED: '1', CI: 'true' }).filter(([name]) => !name.startsWith('VITEST') && name !== 'NODE_ENV'));

describe('starlight-oldest: Starlight 0.32 on Astro 5 + site-search/starlight', () => {
  let dir: string;
  let output: string;
  let app: RunningApp;
  let port: number;
  let browser: Browser;

  beforeAll(async () => {
    dir = appDir('starlight-oldest');
    const built = await run('npx', ['astro', 'build'], { cwd: dir, env, maxBuffer: 64 * 1024 * 1024 }).then(
      ({ stdout, stderr }) => ({ ok: true, output: stdout + stderr }),
      (e: { stdout?: string; stderr?: string }) => ({ ok: false, output: `${e.stdout ?? ''}${e.stderr ?? ''}` }),
    );
    output = built.output;
    if (!built.ok) throw new Error(`astro build failed:\n${output.slice(-4000)}`);
    port = await freePort();
    [app, browser] = await Promise.all([
      start(['node', join(dir, 'dist/server/entry.mjs')], { cwd: dir, port, env: { HOST: '127.0.0.1', PORT: String(port) } }),
      launchChromium([`--host-resolver-rules=MAP ${READER_HOST} 127.0.0.1`]),
    ]);
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('is the version the package claims as its lowest', () => {
    const installed = JSON.parse(readFileSync(join(dir, 'node_modules/@astrojs/starlight/package.json'), 'utf8')) as { version: string };
    const claimed = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { peerDependencies: Record<string, string> }).peerDependencies['@astrojs/starlight'];
    expect(claimed).toMatch(/^>=0\.32\.0/);
    expect(installed.version).toMatch(/^0\.32\./);
  });

  it('astro build indexes the pages and says once, in one line, that the frontmatter check is skipped', () => {
    const lines = output.split('\n').filter((line) => line.includes('frontmatter'));
    expect(lines).toEqual([expect.stringMatching(/\[site-search\].*Starlight 0\.32\.\d+ publishes its frontmatter schema as TypeScript.*indexed without Starlight's frontmatter check.*Starlight 0\.42 or later/)]);
    expect(output).toMatch(/\[site-search\].*indexed 3 pages into \.site-search\/search\.db/);
    expect(output).not.toMatch(/Stripping types|unhandled error/i);
  });

  it('the endpoint answers a search with the page Starlight built, and the box is in the page, asking it', async () => {
    const answer = (await (await fetch(`${app.origin}/api/search?q=riverbank`)).json()) as { results: { title: string; url: string; type: string }[] };
    expect(answer.results.map((r) => [r.title, new URL(r.url).pathname, r.type])).toEqual([['Deployment', '/guides/deployment/', 'docs']]);
    expect(await (await fetch(`${app.origin}/guides/deployment/`)).text()).toMatch(/<site-search endpoint="\/api\/search"/);
  });

  it('a result chosen in the search dialog, in Chromium on a host that is not localhost, opens that page there', async () => {
    const origin = `http://${READER_HOST}:${port}`;
    const page = await browser.newPage();
    try {
      await page.goto(`${origin}/`);
      await page.waitForFunction(() => customElements.get('site-search') && customElements.get('sl-site-search'));
      await expect.poll(() => page.locator('button[data-open-modal]').isEnabled()).toBe(true);
      await page.locator('button[data-open-modal]').click();
      await page.keyboard.type('riverbank');
      const first = page.locator('site-search a[role=option]').first();
      // Starlight's box carries the searched words for the highlight on arrival.
      const href = `${origin}/guides/deployment/?highlight=riverbank`;
      await expect.poll(() => first.evaluate((a) => (a as HTMLAnchorElement).href).catch(() => '')).toBe(href);
      const [response] = await Promise.all([page.waitForResponse((r) => r.request().isNavigationRequest()), first.click()]);
      expect([response.url(), response.status()]).toEqual([href, 200]);
    } finally {
      await page.close();
    }
  });
});
