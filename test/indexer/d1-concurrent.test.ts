/**
 * Two D1 pushes to one database at once (issue 34, item 3), through the real `wrangler d1 execute --local`. Each push
 * reads what the database holds, then sends a SQL file worked out from that reading; another push may have written in
 * between. Before, such a file removed a changed page by the row id it had read (gone by then) and inserted it again,
 * so the page was there twice, and an added page's hash row failed with `UNIQUE constraint failed: search_hashes…`.
 * Now every page a file writes is removed by URL first, so any order of files leaves one row per URL, and the next push
 * repairs the vocabulary. Also counts wrangler calls (issue 33, item 7): one when nothing changed, two for an edit.
 *
 * The project's `node_modules/wrangler` is a wrapper that logs its arguments and runs the real wrangler (the push
 * prefers a project's own wrangler): the only stand-in, to count the calls.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Miniflare } from 'miniflare';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readDocuments, newBuildStats } from '../../src/indexer/build.js';
import { targetState } from '../../src/indexer/changes.js';
import { changeStatements, targetStateQueries, toSqlFile } from '../../src/indexer/sql.js';
import { executeD1File, queryD1 } from '../../src/indexer/wrangler.js';
import { resolveConfig } from '../../src/options/config.js';
import type { IndexDocument } from '../../src/indexer/document.js';
import { makeProject } from '../helpers/project.js';
import { workerOverLocalD1 } from '../helpers/worker-bundle.js';

const run = promisify(execFile);
const CLI = new URL('../../dist/cli.js', import.meta.url).pathname;
const WRANGLER = new URL('../../node_modules/wrangler/bin/wrangler.js', import.meta.url).pathname;
const DATABASE_ID = '00000000-0000-4000-8000-0000000000c2';
const env = { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true' };
const page = (title: string, body: string) => `---\ntitle: ${title}\n---\n## Diet\n\n${body}\n`;

const project = makeProject({
  'wrangler.toml': `name = "concurrent"\ncompatibility_date = "2026-07-01"\n\n[[d1_databases]]\nbinding = "SEARCH_DB"\ndatabase_name = "concurrent-search"\ndatabase_id = "${DATABASE_ID}"\n`,
  'search.config.json': JSON.stringify({ database: 'concurrent-search', sources: [{ dir: 'content', type: 'post', url: '/blog/:slug/' }] }),
  'content/penguins.md': page('Penguins', 'Penguins eat krill and swim fast.'),
  'content/walrus.md': page('Walrus', 'Walruses eat clams on the seabed.'),
  'content/puffin.md': page('Puffin', 'Puffins nest in burrows on cliffs.'),
  'node_modules/wrangler/package.json': JSON.stringify({ name: 'wrangler', bin: { wrangler: 'bin/wrangler.js' } }),
  'node_modules/wrangler/bin/wrangler.js': [
    `require('node:fs').appendFileSync('CALLS', JSON.stringify(process.argv.slice(2)) + '\\n');`,
    `const { status } = require('node:child_process').spawnSync(process.execPath, [${JSON.stringify(WRANGLER)}, ...process.argv.slice(2)], { stdio: 'inherit' });`,
    'process.exit(status ?? 1);',
  ].join('\n'),
});
const config = resolveConfig(JSON.parse(readFileSync(join(project.dir, 'search.config.json'), 'utf8')));
const wrangler = { remote: false, cwd: project.dir, args: ['--persist-to', 'd1-state'] };
let mf: Miniflare | undefined;

const push = async (...flags: string[]) =>
  (await run(process.execPath, [CLI, 'index', '--d1', 'local', ...flags, '--', '--persist-to', 'd1-state'], { cwd: project.dir, env })).stdout;
const calls = () => readFileSync(join(project.dir, 'CALLS'), 'utf8').split('\n').filter(Boolean).length;

async function rows(sql: string): Promise<Record<string, unknown>[]> {
  return (await (await mf!.getD1Database('SEARCH_DB')).prepare(sql).all<Record<string, unknown>>()).results;
}

async function titles(q: string): Promise<string[]> {
  const res = await mf!.dispatchFetch(`http://site.test/api/search?q=${encodeURIComponent(q)}`);
  return ((await res.json()) as { results: { title: string }[] }).results.map((r) => r.title);
}

/** Every table holds each URL's rows once, all of the same page, and the vocabulary each word once. */
async function expectOneRowPerUrl(urls: string[]): Promise<void> {
  const once = (table: string, url = 'url') => rows(`SELECT ${url} AS url, count(*) AS n FROM ${table} GROUP BY 1 ORDER BY 1`);
  const expected = urls.map((url) => ({ url, n: 1 }));
  expect(await once('search_docs')).toEqual(expected);
  expect(await once('search_index')).toEqual(expected);
  expect(await once('search_hashes')).toEqual(expected);
  expect(await once('search_titles t JOIN search_docs d ON d.id = t.rowid', 'd.url')).toEqual(expected);
  expect(await once('search_sections s JOIN search_docs d ON d.id = s.page', 'd.url')).toEqual(expected);
  // Rows no page owns any more (a copy removed from search_docs but left in another table) would escape the joins.
  expect(await rows('SELECT count(*) AS n FROM search_titles WHERE rowid NOT IN (SELECT id FROM search_docs)')).toEqual([{ n: 0 }]);
  expect(await rows('SELECT count(*) AS n FROM search_sections WHERE page NOT IN (SELECT id FROM search_docs)')).toEqual([{ n: 0 }]);
  expect(await rows('SELECT count(*) AS n FROM search_index WHERE rowid NOT IN (SELECT id FROM search_docs)')).toEqual([{ n: 0 }]);
}

async function expectEachWordOnce(): Promise<void> {
  expect(await rows('SELECT site, type, term, count(*) AS n FROM search_vocab GROUP BY 1, 2, 3 HAVING n > 1')).toEqual([]);
}

/** What one push would send, worked out from what the database holds now, without sending it. */
async function planNow(): Promise<string> {
  const documents: IndexDocument[] = [];
  for await (const d of readDocuments(config, newBuildStats(), { cwd: project.dir })) documents.push(d);
  const [pages = [], words = []] = await queryD1(config.database, targetStateQueries(config.site), wrangler);
  return toSqlFile(changeStatements(config, documents, targetState(pages, words)).statements);
}

async function send(sql: string, name: string): Promise<void> {
  const file = join(project.dir, name);
  writeFileSync(file, sql);
  await executeD1File(config.database, file, wrangler);
}

beforeAll(async () => {
  await push();
  mf = await workerOverLocalD1(project.dir, DATABASE_ID);
}, 180_000);
afterAll(async () => {
  await mf?.dispose();
  project.cleanup();
});

const URLS = ['/blog/penguins/', '/blog/puffin/', '/blog/walrus/'];

it('two pushes planned from the same reading, sent one after the other, leave one row per URL (an edit and an add)', async () => {
  project.write('content/penguins.md', page('Penguins', 'Penguins eat squid and swim fast.'));
  project.write('content/tern.md', page('Tern', 'Terns fly from pole to pole.'));
  // Both read the database before either writes: the interleaving that duplicated the page and failed the add.
  const first = await planNow();
  const second = await planNow();
  await send(first, 'first.sql');
  await send(second, 'second.sql');
  await expectOneRowPerUrl([...URLS, '/blog/tern/'].sort());
  expect(await titles('krill')).toEqual([]);
  expect(await titles('squid')).toEqual(['Penguins']);
  expect(await titles('terns')).toEqual(['Tern']);
  // The next push finds nothing to repair in the pages and removes the words both files added.
  expect(await push()).toMatch(/4 pages: 0 added, 0 changed, 0 removed, 4 unchanged; \d+ rows written/);
  await expectEachWordOnce();
  expect(await titles('squid')).toEqual(['Penguins']);
}, 180_000);

it('two CLI pushes at once, then a third: both succeed, one row per URL, no stale text', async () => {
  project.write('content/walrus.md', page('Walrus', 'Walruses eat mussels on the seabed.'));
  project.write('content/gannet.md', page('Gannet', 'Gannets dive into the sea.'));
  const [a, b] = await Promise.all([push(), push()]);
  for (const out of [a, b]) expect(out).toMatch(/5 pages: /);
  await expectOneRowPerUrl([...URLS, '/blog/gannet/', '/blog/tern/'].sort());
  expect(await titles('clams')).toEqual([]);
  expect(await titles('mussels')).toEqual(['Walrus']);
  expect(await titles('gannets')).toEqual(['Gannet']);
  expect(await push()).toMatch(/5 pages: 0 added, 0 changed, 0 removed, 5 unchanged/);
  await expectOneRowPerUrl([...URLS, '/blog/gannet/', '/blog/tern/'].sort());
  await expectEachWordOnce();
}, 240_000);

it('a push with nothing to change runs wrangler once; a one-page edit twice (read, then write)', async () => {
  writeFileSync(join(project.dir, 'CALLS'), '');
  expect(await push()).toMatch(/0 changed, 0 removed, 5 unchanged; 0 rows written/);
  expect(calls()).toBe(1);
  project.write('content/puffin.md', page('Puffin', 'Puffins nest in burrows on grassy cliffs.'));
  writeFileSync(join(project.dir, 'CALLS'), '');
  expect(await push()).toMatch(/0 added, 1 changed, 0 removed, 4 unchanged/);
  expect(calls()).toBe(2);
  expect(await titles('grassy')).toEqual(['Puffin']);
}, 120_000);
