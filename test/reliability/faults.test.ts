/**
 * Faults around the index: a push killed halfway, a read-only file, a disk error halfway, searches during a push, a
 * damaged database file. Real processes and real files; the kill is a real SIGKILL, the disk error a real EFBIG.
 */
import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, chmodSync, copyFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openSqlite } from '../../adapters/node.js';
import { createSearchHandler, resolveConfig, searchIndex } from '../../src/index.js';
import { buildIndex, writeIndex } from '../../src/indexer/index.js';
import { syncDocsStatement } from '../../src/db/schema.js';
import { forgetTypoIndexes } from '../../src/search/packed-vocabulary.js';
import { observe } from '../helpers/observe.js';
import { makeProject } from '../helpers/project.js';

const CLI = new URL('../../dist/cli.js', import.meta.url).pathname;
const page = (i: number) => `---\ntitle: Page ${i}\n---\nOtters and beavers, page ${i}. ${'Rivers flow into the sea. '.repeat(200)}`;
const project = makeProject(Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`content/p${i}.md`, page(i)])));
const config = resolveConfig({ database: 'faults', sources: [{ dir: 'content', type: 'page', url: '/:slug' }] });
const dbPath = join(project.dir, 'index.db');
/**
 * `site-search index --full` in its own process; `shell` runs first in the same bash (a ulimit, a trap), then bash
 * execs it. A full rewrite, so each push writes every page for seconds (a push of only the page that changed would be
 * over before a fault could reach it halfway); incremental pushes run in the same one transaction.
 */
const index = (shell = '') =>
  spawn('bash', ['-c', `${shell}\nexec "$0" "$@"`, process.execPath, CLI, 'index', './content', '--sqlite', dbPath, '--full'], {
    cwd: project.dir,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
const finished = (child: ReturnType<typeof spawn>) => new Promise<number | null>((done) => child.on('exit', (code) => done(code)));

beforeAll(async () => {
  expect(await finished(index())).toBe(0);
}, 60_000);
afterAll(() => project.cleanup());

/** The index before the push: every page of the fixture, and not the page the push adds. */
async function expectPreviousIndex() {
  const db = openSqlite(dbPath);
  expect((await searchIndex(config, { db, q: 'otters', limit: 25 })).length).toBe(25);
  expect(await searchIndex(config, { db, q: 'narwhals' })).toEqual([]);
  db.close();
}

it('a push killed halfway (SIGKILL) leaves the previous index answering', async () => {
  project.write('content/new.md', '---\ntitle: Brand new\n---\nNarwhals.');
  const child = index();
  await new Promise((r) => setTimeout(r, 400)); // well inside the push: it takes seconds for 3,000 pages
  child.kill('SIGKILL');
  expect(await finished(child)).toBe(null);
  await expectPreviousIndex();
});

/** Runs a push to completion, with its stderr. */
function push(shell = ''): Promise<{ code: number | null; stderr: string }> {
  const child = index(shell);
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  return finished(child).then((code) => ({ code, stderr }));
}

it('a push into a read-only database file fails with one line naming the file, and the previous index answers', async () => {
  project.write('content/new.md', '---\ntitle: Brand new\n---\nNarwhals.');
  // chmod alone does not stop root (CI runs as root here); the immutable attribute does, for root too.
  chmodSync(dbPath, 0o444);
  const immutable = process.getuid?.() === 0;
  if (immutable) execFileSync('chattr', ['+i', dbPath]);
  try {
    expect(() => appendFileSync(dbPath, 'x'), 'the file must really be read-only for this test').toThrow(/EPERM|EACCES/);
    const { code, stderr } = await push();
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([
      `[site-search] Could not write the index to ${dbPath} (attempt to write a readonly database). Make the file and its folder writable, or write the index elsewhere with --sqlite FILE. The previous index is unchanged.`,
    ]);
  } finally {
    if (immutable) execFileSync('chattr', ['-i', dbPath]);
    chmodSync(dbPath, 0o644);
  }
  await expectPreviousIndex();
}, 60_000);

it('a disk error halfway through a push (the file cannot grow) fails cleanly, and the previous index answers', async () => {
  project.write('content/new.md', '---\ntitle: Brand new\n---\nNarwhals.');
  // A real write error from the kernel, for root too: the push may not grow any file past half the index's size, so
  // its writes start failing (EFBIG) partway through. SIGXFSZ is ignored so that the write fails instead of killing.
  const halfKiB = Math.floor(statSync(dbPath).size / 1024 / 2);
  const { code, stderr } = await push(`trap '' XFSZ; ulimit -f ${halfKiB}`);
  expect(code).toBe(1);
  expect(stderr.trim().split('\n')).toEqual([
    `[site-search] Could not write the index to ${dbPath} (disk I/O error). Free disk space (or check the disk), then run the push again. The previous index is unchanged.`,
  ]);
  await expectPreviousIndex();
  // And once the disk is fine again, the same push goes through.
  expect((await push()).code).toBe(0);
  const db = openSqlite(dbPath);
  expect((await searchIndex(config, { db, q: 'narwhals' })).map((r) => r.title)).toEqual(['Brand new']);
  db.close();
}, 60_000);

it('searches during a push see the old or the new index, never an empty one', async () => {
  project.write('content/new.md', '---\ntitle: Brand new\n---\nNarwhals.');
  const db = openSqlite(dbPath);
  const handler = createSearchHandler(config, { db, cache: false });
  const child = index();
  const exited = finished(child);
  let searches = 0;
  let running = true;
  void exited.then(() => (running = false));
  while (running) {
    const res = await handler(new Request('http://site.test/api/search?q=otters&limit=5'));
    expect(res.status).toBe(200);
    expect(((await res.json()) as { results: unknown[] }).results).toHaveLength(5);
    searches++;
    await new Promise((r) => setTimeout(r, 5));
  }
  expect(await exited).toBe(0);
  expect(searches).toBeGreaterThan(5);
  // And the new index is there once the push committed.
  expect((await searchIndex(config, { db, q: 'narwhals' })).map((r) => r.title)).toEqual(['Brand new']);
  db.close();
}, 60_000);

it('a damaged database file answers a clear 500, keeps answering (no crash), and recovers once rebuilt', async () => {
  const damaged = join(project.dir, 'damaged.db');
  writeFileSync(damaged, 'this is not a SQLite database, just text that someone copied over it'.repeat(100));
  const handler = createSearchHandler(config, { db: () => openSqlite(damaged), cache: false });
  for (let i = 0; i < 3; i++) {
    const res = await handler(new Request('http://site.test/api/search?q=otters'));
    expect(res.status).toBe(500);
    expect(((await res.json()) as { error: string }).error).toMatch(/^Search (index is damaged|database could not be opened)/);
  }
  // The index rebuilt in its place: the same handler answers, no restart.
  copyFileSync(dbPath, damaged);
  const res = await handler(new Request('http://site.test/api/search?q=otters&limit=3'));
  expect(res.status).toBe(200);
  expect(((await res.json()) as { results: unknown[] }).results).toHaveLength(3);
});

it('a push that commits between a corrected search’s two statements does not drop results: the second is a whole search', async () => {
  const site = makeProject(Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`content/otter-${i}.md`, `---\ntitle: Otter ${i}\n---\nOtters swim.`])));
  const live = openSqlite(':memory:');
  const { documents } = await buildIndex(config, { cwd: site.dir });
  await writeIndex(live, config, documents);
  let statements = 0;
  // A process that has not loaded a vocabulary yet (one kept from this file's earlier searches would be another
  // database's): its corrected searches take two statements, the race this guards.
  forgetTypoIndexes();
  // The race, made deterministic: right before the second statement (the one with the correction), a push replaces
  // every row (new rowids), as a concurrent `site-search index` committing at that moment would.
  const racing = observe(live, () => {
    if (++statements !== 2) return;
    live.exec(`CREATE TEMP TABLE keep AS SELECT rowid AS old, title, description, content, tags, url, site, type, date, emoji FROM search_index;
      INSERT INTO search_index (title, description, content, tags, url, site, type, date, emoji)
        SELECT title, description, content, tags, url, site, type, date, emoji FROM keep;
      DELETE FROM search_index WHERE rowid IN (SELECT old FROM keep);
      DELETE FROM search_docs;
      DROP TABLE keep;`);
    live.exec(syncDocsStatement(''));
  });
  const results = await searchIndex(config, { db: racing, q: 'oters', limit: 5 });
  expect(statements).toBe(2);
  expect(results.map((r) => r.title).sort()).toEqual(['Otter 0', 'Otter 1', 'Otter 2', 'Otter 3', 'Otter 4']);
  expect(results.every((r) => r.match === 'typo')).toBe(true);
  live.close();
  site.cleanup();
});
