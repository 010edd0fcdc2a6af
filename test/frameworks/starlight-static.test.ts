/**
 * A Starlight site with no adapter (issue 45, item 7), in the real app's pages (test/frameworks/apps/starlight-node,
 * copied into a folder inside it so it runs on the app's installed Astro, Starlight and packed site-search):
 * `astro build` stops with site-search's error naming the two ways out, not Astro's generic "no adapter" one; and
 * docs/frameworks/starlight.md's static recipe (taken from the page) builds a static site whose box asks the Worker.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appDir, docsBlock } from './harness.js';

const run = promisify(execFile);
const CLI = new URL('../../dist/cli.js', import.meta.url).pathname;
const env = Object.fromEntries(Object.entries({ ...process.env, ASTRO_TELEMETRY_DISABLED: '1', CI: 'true' }).filter(([name]) => !name.startsWith('VITEST') && name !== 'NODE_ENV'));

describe('starlight-node without an adapter', () => {
  let site: string;
  let app: string;
  const build = () => run('npx', ['astro', 'build', '--root', site], { cwd: site, env, maxBuffer: 64 * 1024 * 1024 }).then(
    ({ stdout, stderr }) => ({ ok: true, output: stdout + stderr }),
    (e: { stdout?: string; stderr?: string }) => ({ ok: false, output: `${e.stdout ?? ''}${e.stderr ?? ''}` }),
  );

  beforeAll(() => {
    app = appDir('starlight-node');
    site = join(app, 'static-check');
    rmSync(site, { recursive: true, force: true });
    mkdirSync(site);
    cpSync(join(app, 'src'), join(site, 'src'), { recursive: true });
  });
  afterAll(() => rmSync(site, { recursive: true, force: true }));

  it('astro build stops with site-search’s error naming both ways out: an adapter, or endpoint: a Worker', async () => {
    const config = readFileSync(join(app, 'astro.config.mjs'), 'utf8');
    const withoutAdapter = config.replace("import node from '@astrojs/node';\n", '').replace("  adapter: node({ mode: 'standalone' }),\n", '');
    expect(withoutAdapter).not.toMatch(/adapter|node\(/);
    writeFileSync(join(site, 'astro.config.mjs'), withoutAdapter);
    const { ok, output } = await build();
    expect(ok).toBe(false);
    expect(output).toMatch(/\[site-search\] The search endpoint runs on demand, which a static build cannot serve: add an adapter \(npx astro add node[^)]*\), or keep the site static and answer searches from a site-search\/workers Worker: siteSearch\(\{ apiRoute: false, endpoint: "https:\/\/<your worker>\/api\/search" \}\)/);
  }, 300_000);

  it('the guide’s static recipe builds a static site whose box asks the Worker, with the index ready to push', async () => {
    const recipe = readRecipe();
    writeFileSync(join(site, 'astro.config.mjs'), recipe);
    const { ok, output } = await build();
    expect(ok, output.slice(-3000)).toBe(true);
    expect(existsSync(join(site, 'dist/server'))).toBe(false);
    const fr = readFileSync(join(site, 'dist/fr/index.html'), 'utf8');
    expect(fr).toMatch(/<site-search endpoint="https:\/\/search\.example\.com\/api\/search\?type=fr"/);
    expect(readFileSync(join(site, 'dist/index.html'), 'utf8')).toMatch(/<site-search endpoint="https:\/\/search\.example\.com\/api\/search\?type=en"/);
    // What the recipe pushes to D1: the options the plugin derived, whose types are the Worker's.
    const options = JSON.parse(readFileSync(join(site, '.site-search/options.json'), 'utf8')) as { database: string; sources: { type: string }[] };
    expect(options.database).toBe('my-docs-search');
    const worker = docsBlock('docs/frameworks/starlight.md', '// worker/src/index.ts');
    expect(options.sources.map((s) => `type: '${s.type}'`).every((t) => worker.includes(t))).toBe(true);
    const { stdout } = await run(process.execPath, [CLI, 'query', 'rivière', '--config', join(site, '.site-search/options.json'), '--json'], { env });
    expect((JSON.parse(stdout) as { results: { url: string }[] }).results.map((r) => new URL(r.url, 'http://x').pathname)).toEqual(['/fr/guides/deployment/']);
  }, 300_000);
});

/** The guide's astro.config.mjs for a static site (the one with `apiRoute: false`). */
function readRecipe(): string {
  const docs = readFileSync(new URL('../../docs/frameworks/starlight.md', import.meta.url), 'utf8');
  const block = [...docs.matchAll(/```js\n(\/\/ astro\.config\.mjs\n[\s\S]*?)```/g)].map((m) => m[1]!).find((b) => b.includes('apiRoute: false'));
  if (!block) throw new Error('docs/frameworks/starlight.md has no static astro.config.mjs (apiRoute: false)');
  return block;
}
