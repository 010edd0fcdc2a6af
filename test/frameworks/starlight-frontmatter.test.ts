/**
 * The Starlight plugin indexes only pages Starlight builds (issue 34, item 6): a page whose frontmatter Starlight's docs
 * schema rejects stops `astro build` and is never a page, so it must not be a search result. The real Starlight app
 * (test/frameworks/apps/starlight-node, its config and pages) is copied into a folder inside it, so it runs on the
 * app's installed Astro, Starlight and packed site-search, with two pages added: one Starlight rejects, and one using
 * many of the fields Starlight accepts (a YAML date, a hero, head tags), which must stay indexed.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appDir } from './harness.js';

const run = promisify(execFile);
const CLI = new URL('../../dist/cli.js', import.meta.url).pathname;
const env = Object.fromEntries(Object.entries({ ...process.env, ASTRO_TELEMETRY_DISABLED: '1', CI: 'true' }).filter(([name]) => !name.startsWith('VITEST') && name !== 'NODE_ENV'));

const REJECTED = `---\ntitle: Broken page\nsidebar:\n  order: first\n---\n\nThe zebrawort page: its sidebar order is not a number.\n`;
const ACCEPTED = `---
title: Rich page
description: Many of the fields Starlight accepts.
lastUpdated: 2024-01-15
editUrl: false
template: doc
tableOfContents:
  minHeadingLevel: 2
  maxHeadingLevel: 4
sidebar:
  order: 2
  label: Rich
  badge: New
hero:
  tagline: A page with a hero
  actions:
    - text: Start
      link: /guides/deployment/
head:
  - tag: meta
    attrs:
      name: keywords
      content: quokka
prev: false
banner:
  content: A banner
---

The quokkaleaf page.
`;

interface Answer {
  results: { url: string }[];
}

describe('starlight-node: a page whose frontmatter Starlight rejects is not indexed', () => {
  let site: string;
  const build = () => run('npx', ['astro', 'build', '--root', site], { cwd: site, env, maxBuffer: 64 * 1024 * 1024 }).then(
    ({ stdout, stderr }) => ({ ok: true, output: stdout + stderr }),
    (e: { stdout?: string; stderr?: string }) => ({ ok: false, output: `${e.stdout ?? ''}${e.stderr ?? ''}` }),
  );
  /** The paths `site-search query` finds in the plugin's index, or in the SQLite file given. */
  const query = async (q: string, ...sqlite: string[]) =>
    (JSON.parse((await run(process.execPath, [CLI, 'query', q, '--config', join(site, '.site-search/options.json'), ...sqlite, '--json'], { env })).stdout) as Answer).results.map(
      (r) => new URL(r.url, 'http://x').pathname,
    );

  beforeAll(() => {
    const app = appDir('starlight-node');
    // Inside the app, so the copy resolves the app's node_modules.
    site = join(app, 'frontmatter-check');
    rmSync(site, { recursive: true, force: true });
    mkdirSync(site);
    cpSync(join(app, 'src'), join(site, 'src'), { recursive: true });
    cpSync(join(app, 'astro.config.mjs'), join(site, 'astro.config.mjs'));
    writeFileSync(join(site, 'src/content/docs/guides/broken.md'), REJECTED);
    writeFileSync(join(site, 'src/content/docs/guides/rich.md'), ACCEPTED);
  });
  afterAll(() => rmSync(site, { recursive: true, force: true }));

  it('astro build indexes every other page, warns once naming the file and the field, and Astro rejects the page', async () => {
    const { ok, output } = await build();
    // Starlight's own verdict: the build stops on this page.
    expect(ok).toBe(false);
    expect(output).toMatch(/InvalidContentEntryDataError[\s\S]*guides\/broken/);
    const warnings = output.split('\n').filter((line) => line.includes('broken.md'));
    expect(warnings.filter((line) => line.includes('[site-search]'))).toEqual([
      expect.stringMatching(/broken\.md: frontmatter sidebar\.order: .*expected number.*Starlight's docs schema rejects it, so the page is not built; skipped \(fix the field\)/),
    ]);
    expect(await query('zebrawort')).toEqual([]);
    expect(await query('quokkaleaf')).toEqual(['/guides/rich/']);
    expect(await query('riverbank')).toEqual(['/guides/deployment/']);
  }, 300_000);

  it('"site-search index" with the options the plugin wrote (the D1 push) skips it too, in its parse threads', async () => {
    const options = join(site, '.site-search/options.json');
    const db = join(site, 'cli.db');
    const { stdout, stderr } = await run(process.execPath, [CLI, 'index', '--config', options, '--sqlite', db], { env });
    expect(`${stdout}${stderr}`).toMatch(/warning: .*broken\.md: frontmatter sidebar\.order: .*skipped \(fix the field\)/);
    expect(await query('zebrawort', '--sqlite', db)).toEqual([]);
    expect(await query('quokkaleaf', '--sqlite', db)).toEqual(['/guides/rich/']);
  }, 120_000);

  it('with the page fixed, Starlight builds every page the index holds, the one with many fields included', async () => {
    writeFileSync(join(site, 'src/content/docs/guides/broken.md'), REJECTED.replace('order: first', 'order: 1'));
    const { ok, output } = await build();
    expect(ok, output).toBe(true);
    expect(existsSync(join(site, 'dist/client/guides/rich/index.html'))).toBe(true);
    expect(await query('zebrawort')).toEqual(['/guides/broken/']);
    expect(await query('quokkaleaf')).toEqual(['/guides/rich/']);
  }, 300_000);
});
