/**
 * Faults around the index: a push killed halfway, searches during a push, a damaged database file. Real processes and
 * real files; the kill is a real SIGKILL.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openSqlite } from '../../adapters/node.js';
import { createSearchHandler, resolveConfig, searchIndex } from '../../src/index.js';
import { syncDocsStatement } from '../../src/schema.js';
import { seed } from '../helpers/documents.js';
import { observe } from '../helpers/observe.js';
import { makeProject } from '../helpers/project.js';

const CLI = new URL('../../dist/cli.js', import.meta.url).pathname;
const page = (i: number) => `---\ntitle: Page ${i}\n---\nOtters and beavers, page ${i}. ${'Rivers flow into the sea. '.repeat(200)}`;
const project = makeProject(Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`content/p${i}.md`, page(i)])));
const config = resolveConfig({ database: 'faults', sources: [{ dir: 'content', type: 'page', url: '/:slug' }] });
const dbPath = join(project.dir, 'index.db');
const index = () => spawn(process.execPath, [CLI, 'index', './content', '--sqlite', dbPath], { cwd: project.dir, stdio: 'ignore' });
const finished = (child: ReturnType<typeof spawn>) => new Promise<number | null>((done) => child.on('exit', (code) => done(code)));

beforeAll(async () => {
  expect(await finished(index())).toBe(0);
}, 60_000);
afterAll(() => project.cleanup());

it('a push killed halfway (SIGKILL) leaves the previous index answering', async () => {
  project.write('content/new.md', '---\ntitle: Brand new\n---\nNarwhals.');
  const child = index();
  await new Promise((r) => setTimeout(r, 400)); // well inside the push: it takes seconds for 3,000 pages
  child.kill('SIGKILL');
  expect(await finished(child)).toBe(null);
  const db = openSqlite(dbPath);
  expect((await searchIndex(config, { db, q: 'otters', limit: 25 })).length).toBe(25);
  expect(await searchIndex(config, { db, q: 'narwhals' })).toEqual([]);
  db.close();
});

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

it('a damaged database file answers a clear 500, and keeps answering (no crash)', async () => {
  const damaged = join(project.dir, 'damaged.db');
  writeFileSync(damaged, 'this is not a SQLite database, just text that someone copied over it'.repeat(100));
  const handler = createSearchHandler(config, { db: () => openSqlite(damaged), cache: false });
  for (let i = 0; i < 3; i++) {
    const res = await handler(new Request('http://site.test/api/search?q=otters'));
    expect(res.status).toBe(500);
    expect(((await res.json()) as { error: string }).error).toMatch(/^Search (index is damaged|database could not be opened)/);
  }
});

it('a push that commits between a search’s statements does not drop results: the search runs again', async () => {
  const live = openSqlite(':memory:');
  await seed(live, Array.from({ length: 5 }, (_, i) => ({ title: `Otter ${i}`, content: 'otters swim', url: `/o/${i}`, type: 'page' })));
  let pushed = false;
  // The race, made deterministic: right before the first details query, a push replaces every row (new rowids), as a
  // concurrent `site-search index` committing at that moment would.
  const racing = observe(live, (sql) => {
    if (pushed || !sql.includes('snippet(')) return;
    pushed = true;
    // New rows first, then the old ones deleted: the rowids change, as in a real push of a grown site.
    live.exec(`CREATE TEMP TABLE keep AS SELECT rowid AS old, title, description, content, tags, url, site, type, date, emoji FROM search_index;
      INSERT INTO search_index (title, description, content, tags, url, site, type, date, emoji)
        SELECT title, description, content, tags, url, site, type, date, emoji FROM keep;
      DELETE FROM search_index WHERE rowid IN (SELECT old FROM keep);
      DELETE FROM search_docs;
      DROP TABLE keep;`);
    live.exec(syncDocsStatement(''));
  });
  const results = await searchIndex(config, { db: racing, q: 'otters', limit: 5 });
  expect(pushed).toBe(true);
  expect(results.map((r) => r.title).sort()).toEqual(['Otter 0', 'Otter 1', 'Otter 2', 'Otter 3', 'Otter 4']);
  live.close();
});
