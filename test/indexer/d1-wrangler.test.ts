/**
 * The D1 push for real: `site-search index --d1 local` runs wrangler d1 execute --local, then the Worker from
 * createWorker, in Miniflare, reads that same local D1 (the --persist-to folder passed through to wrangler) and
 * answers with the documents.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Miniflare } from 'miniflare';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeProject } from '../helpers/project.js';
import { workerOverLocalD1 } from '../helpers/worker-bundle.js';

const run = promisify(execFile);
const CLI = new URL('../../dist/cli.js', import.meta.url).pathname;
const DATABASE_ID = '00000000-0000-4000-8000-0000000000d1';

const project = makeProject({
  'wrangler.toml': `name = "roundtrip"\ncompatibility_date = "2026-07-01"\n\n[[d1_databases]]\nbinding = "SEARCH_DB"\ndatabase_name = "roundtrip-search"\ndatabase_id = "${DATABASE_ID}"\n`,
  'search.config.json': JSON.stringify({ database: 'roundtrip-search', sources: [{ dir: 'content', type: 'post', url: '/blog/:slug/' }] }),
  'content/penguins.md': `---\ntitle: Penguin facts\ntags: [birds, ocean]\ndate: 2024-05-01\n---\nPenguins can't fly; they "swim". O'Reilly's <b>bold</b> claim: 100% true -- really.\n`,
  'content/walrus.mdx': `---\ntitle: Walrus\n---\nimport X from './x.astro';\n\nWalruses have tusks 🦷 and live in the Arctic.\n`,
});
let mf: Miniflare | undefined;

beforeAll(async () => {
  const env = { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true' };
  // Arguments after -- go to wrangler: here its local state directory.
  const { stdout } = await run(process.execPath, [CLI, 'index', '--d1', 'local', '--', '--persist-to', 'd1-state'], { cwd: project.dir, env });
  expect(stdout).toMatch(/2 pages: 2 added, 0 changed, 0 removed, 0 unchanged; \d+ rows written → d1:roundtrip-search \(local\)/);
  mf = await workerOverLocalD1(project.dir, DATABASE_ID);
}, 180_000);
afterAll(async () => {
  await mf?.dispose();
  project.cleanup();
});

it('pushes with wrangler --local and the Worker finds the documents in that D1', async () => {
  const res = await mf!.dispatchFetch('http://site.test/api/search?q=penguins');
  expect(res.status).toBe(200);
  const { results } = (await res.json()) as { results: Record<string, unknown>[] };
  expect(results).toEqual([
    expect.objectContaining({ title: 'Penguin facts', url: 'http://site.test/blog/penguins/', type: 'post', date: '2024-05-01', tags: 'birds ocean' }),
  ]);
  expect(results[0]!.snippet).toContain(`<mark>Penguins</mark> can&#39;t fly; they &quot;swim&quot;. O&#39;Reilly&#39;s bold claim: 100% true -- really.`);

  const walrus = (await (await mf!.dispatchFetch('http://site.test/api/search?q=tusks')).json()) as { results: { title: string; snippet: string }[] };
  expect(walrus.results.map((r) => r.title)).toEqual(['Walrus']);
  expect(walrus.results[0]!.snippet).not.toContain('import');
});

it('a second push replaces the rows instead of adding to them', async () => {
  const env = { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true' };
  await run(process.execPath, [CLI, 'index', '--d1', 'local', '--', '--persist-to', 'd1-state'], { cwd: project.dir, env });
  const db = await mf!.getD1Database('SEARCH_DB');
  const { results } = await db.prepare('SELECT count(*) AS n FROM search_index').all<{ n: number }>();
  expect(results[0]!.n).toBe(2);
});

it('a D1 push that fails halfway leaves the previous index answering (wrangler rolls the file back)', async () => {
  const env = { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true' };
  const wrangler = new URL('../../node_modules/.bin/wrangler', import.meta.url).pathname;
  // The fault: a table in the way whose columns the push's vocabulary INSERT does not match, so a statement in the
  // middle of the SQL file fails, after this site's documents were already deleted.
  await run(wrangler, ['d1', 'execute', 'roundtrip-search', '--local', '--persist-to', 'd1-state', '--yes', '--command',
    'DROP TABLE IF EXISTS search_vocab; CREATE TABLE search_vocab (term TEXT)'], { cwd: project.dir, env });
  project.write('content/penguins.md', '---\ntitle: Penguins renamed\n---\nNothing about the old birds.\n');
  // --full: the whole site in one SQL file, so the failing statement comes after the site's rows were deleted.
  const failed = await run(process.execPath, [CLI, 'index', '--d1', 'local', '--full', '--', '--persist-to', 'd1-state'], { cwd: project.dir, env }).then(
    () => undefined,
    (e: { code: number; stderr: string }) => e,
  );
  expect(failed?.code).toBe(1);
  expect(failed?.stderr).toMatch(/^\[site-search\] wrangler d1 execute roundtrip-search failed \(exit 1\)/);
  const { results } = (await (await mf!.dispatchFetch('http://site.test/api/search?q=penguins')).json()) as { results: { title: string }[] };
  expect(results.map((r) => r.title)).toEqual(['Penguin facts']);
}, 120_000);
