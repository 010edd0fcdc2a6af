import { join } from 'node:path';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';

/** Bundles test/workers/worker-entry.ts (createWorker as users export it), or another entry there, into one module script for workerd. */
export async function bundleTestWorker(entry = 'worker-entry.ts'): Promise<string> {
  const out = await build({
    entryPoints: [new URL(`../workers/${entry}`, import.meta.url).pathname],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    write: false,
  });
  return out.outputFiles[0]!.text;
}

/**
 * The test Worker in Miniflare over the local D1 that `site-search index --d1 local -- --persist-to <state>` wrote in
 * `projectDir`: the database wrangler filled, read by the Worker as in `wrangler dev`.
 */
export async function workerOverLocalD1(projectDir: string, databaseId: string, state = 'd1-state'): Promise<Miniflare> {
  return new Miniflare({
    modules: true,
    script: await bundleTestWorker(),
    compatibilityDate: '2026-07-01',
    d1Databases: { SEARCH_DB: databaseId },
    d1Persist: join(projectDir, state, 'v3/d1'),
  });
}
