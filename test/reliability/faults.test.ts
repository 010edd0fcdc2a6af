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
import { forgetKnownIndexes as forgetTypoIndexes } from '../../src/search/known-index.js';
import { indexTables } from '../helpers/index-tables.js';
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
const index = (shell = '', path = dbPath, env: Record<string, string> = {}) =>
  spawn('bash', ['-c', `${shell}\nexec "$0" "$@"`, process.execPath, CLI, 'index', './content', '--sqlite', path, '--full'], {
    cwd: project.dir,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, ...env },
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

/**
 * Every table of the index at `path`, exactly (test/helpers/index-tables.ts: page rows with their side rows, the
 * vocabulary, FTS5's integrity-check first), with search_meta as it is, the vocabulary's random generation included.
 */
async function tablesOf(path: string) {
  // Writable: FTS5's integrity-check is an INSERT (it writes nothing), and opening recovers a killed push's log.
  const db = openSqlite(path, { readOnly: false });
  try {
    const meta = (await db.prepare('SELECT key, value FROM search_meta ORDER BY key').all()).results.map((row) => ({ ...row }));
    return { ...(await indexTables(db)), meta };
  } finally {
    db.close();
  }
}

// Issue 48, item 2: the kill used to land after a fixed 400 ms, when the push had most likely written nothing yet. Now
// the push stops itself at a point of its own progress (SITE_SEARCH_TEST_PAUSE_AT, src/indexer/test-pause.ts) and is
// killed there: after its first writes (the rewrite deleted every row), midway, with every row written but not
// committed; and, to show the comparison tells the two states apart, right after the commit.
it('a push killed (SIGKILL) at each point of its progress leaves exactly the previous index, or exactly the new one once committed', async () => {
  project.write('content/new.md', '---\ntitle: Brand new\n---\nNarwhals.');
  const old = await tablesOf(dbPath);
  expect(old.pages.length).toBe(3000);
  // The state the push leaves when it completes, written by the same push on a copy of the index.
  const completed = join(project.dir, 'completed.db');
  copyFileSync(dbPath, completed);
  expect(await finished(index('', completed))).toBe(0);
  const fresh = await tablesOf(completed);
  expect(fresh.pages.length).toBe(3001);
  expect(fresh).not.toEqual(old);

  for (const point of ['cleared', 'page:1500', 'commit', 'committed']) {
    const copy = join(project.dir, `killed-${point.replace(':', '-')}.db`);
    copyFileSync(dbPath, copy);
    const child = index('', copy, { SITE_SEARCH_TEST_PAUSE_AT: point });
    const exited = finished(child);
    let stderr = '';
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    // The push says it reached the point, then stops itself there; the kill lands on a stopped process.
    await expect.poll(() => stderr, { timeout: 30_000, interval: 20 }).toContain(`test pause at ${point}`);
    if (point === 'page:1500' || point === 'commit') {
      // Half the pages (or all) are written by now: past SQLite's page cache, they are in the file's write-ahead log.
      expect(statSync(`${copy}-wal`).size, point).toBeGreaterThan(1_000_000);
    }
    child.kill('SIGKILL');
    expect(await exited, point).toBe(null);
    const left = await tablesOf(copy);
    if (point !== 'committed') {
      expect(left, point).toEqual(old);
    } else {
      // The vocabulary's generation is random per push: the committed one is new, and its own.
      expect({ ...left, meta: undefined }, point).toEqual({ ...fresh, meta: undefined });
      expect(left.meta, point).not.toEqual(old.meta);
    }
  }
}, 240_000);

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
    live.exec(`CREATE TEMP TABLE keep AS SELECT rowid AS old, title, description, content, tags, more, scope, url, site, type, date, emoji, boost FROM search_index;
      INSERT INTO search_index (title, description, content, tags, more, scope, url, site, type, date, emoji, boost)
        SELECT title, description, content, tags, more, scope, url, site, type, date, emoji, boost FROM keep;
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
