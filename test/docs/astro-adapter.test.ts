/**
 * Astro 5's Node adapter in the guides (issue 55, item 2): `npx astro add node` installs the newest `@astrojs/node`,
 * whose peer range needs a newer Astro, and on Astro 5 it stops (`npm i @astrojs/node@^11… exited with code 1`). The
 * Astro and Starlight guides name the major made for Astro 5; this checks that major against the real adapters the
 * test apps install from npm: the one the Astro 5 apps run on accepts Astro 5, the newest does not, and the guides name
 * the first.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, type TestContext } from 'vitest';

const ROOT = new URL('../..', import.meta.url).pathname;
const apps = join(ROOT, 'test/frameworks/apps');
const json = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as { version: string; peerDependencies?: Record<string, string> };
/** The installed `@astrojs/node` of a test app: its version and the Astro majors its peer range starts at. */
const adapterOf = (app: string) => json(join(apps, app, 'node_modules/@astrojs/node/package.json'));
const major = (version: string) => Number(/\d+/.exec(version)![0]);
/** The lowest Astro major an adapter's `astro` peer range (`^5.17.3`, `^7.2.1`) accepts. */
const lowestAstro = (app: string) => major(adapterOf(app).peerDependencies!.astro!);

/** As docs/framework-snippets.test.ts: without its app a test is skipped with the install command; under CI it fails. */
function needsApps(ctx: TestContext, ...names: string[]): void {
  const missing = names.filter((app) => !existsSync(join(apps, app, 'node_modules/@astrojs/node/package.json')));
  if (!missing.length) return;
  const reason = `test/frameworks/apps/${missing.join(', ')} not installed (bash test/frameworks/install.sh ${missing.join(' ')})`;
  if (process.env.CI) throw new Error(`[site-search] ${reason}; under CI every docs test must run`);
  ctx.skip(reason);
}

describe("Astro 5's Node adapter in the guides", () => {
  it.for(['docs/frameworks/astro.md', 'docs/frameworks/starlight.md'])('%s names the @astrojs/node major the Astro 5 apps run on, which the newest adapter is not', (doc, ctx) => {
    needsApps(ctx, 'astro5-node', 'starlight-oldest', 'astro7-newest');
    const named = [...readFileSync(join(ROOT, doc), 'utf8').matchAll(/npm install site-search @astrojs\/node@(\d+)/g)].map((m) => Number(m[1]));
    expect(named, `${doc} gives the install command for Astro 5`).toHaveLength(1);
    for (const app of ['astro5-node', 'starlight-oldest']) {
      expect(major(json(join(apps, app, 'node_modules/astro/package.json')).version), `${app} runs Astro 5`).toBe(5);
      expect(major(adapterOf(app).version), `${app}'s @astrojs/node`).toBe(named[0]);
      expect(lowestAstro(app), `@astrojs/node ${adapterOf(app).version} accepts Astro 5`).toBeLessThanOrEqual(5);
    }
    // What `astro add node` installs today (the newest, as astro7-newest pins it) does not accept Astro 5.
    expect(lowestAstro('astro7-newest'), `@astrojs/node ${adapterOf('astro7-newest').version}`).toBeGreaterThan(5);
    expect(major(adapterOf('astro7-newest').version)).toBeGreaterThan(named[0]!);
  });
});
