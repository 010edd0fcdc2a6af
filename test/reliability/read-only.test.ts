/**
 * The index on a read-only file system, as serverless functions (Vercel, Netlify, Lambda) and read-only containers
 * have it: built by `site-search index`, then read through a real read-only bind mount (chmod does not stop root, a
 * read-only mount does), on node:sqlite and better-sqlite3, by openSqlite() and by each Node-side adapter.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toNextHandler } from '../../adapters/next.js';
import { openSqlite, toNodeListener, type SqliteDatabase, type SqliteDriver } from '../../adapters/node.js';
import { toSvelteKitHandler } from '../../adapters/sveltekit.js';
import { createSearchHandler, resolveConfig, searchIndex } from '../../src/index.js';
import { makeProject } from '../helpers/project.js';
import { mountReadOnly } from '../helpers/read-only-mount.js';

const CLI = new URL('../../dist/cli.js', import.meta.url).pathname;
const DRIVERS: SqliteDriver[] = ['node:sqlite', 'better-sqlite3'];
const options = { database: 'read-only', sources: [{ dir: 'content', type: 'page', url: '/:slug' }] };
const config = resolveConfig(options);
const project = makeProject({
  'search.config.json': JSON.stringify(options),
  'content/otters.md': '---\ntitle: Otters\n---\nOtters hold hands while they sleep.',
  'content/beavers.md': '---\ntitle: Beavers\n---\nBeavers build dams across rivers.',
});
let mount: ReturnType<typeof mountReadOnly> | undefined;
/** The index as `site-search index` left it, seen through a read-only bind mount of the project folder. */
const readOnlyIndex = () => join(mount!.path, '.site-search/search.db');

beforeAll(() => {
  execFileSync(process.execPath, [CLI, 'index'], { cwd: project.dir, stdio: 'pipe' });
  // A WAL-mode copy: what a push leaves when a server was reading the file while it wrote (test/indexer/push.test.ts).
  walModeCopy(join(project.dir, '.site-search/search.db'), join(project.dir, '.site-search/wal-mode.db'));
  mount = mountReadOnly(project.dir);
}, 60_000);

afterAll(() => {
  for (const db of opened) db.close();
  mount?.unmount();
  project.cleanup();
});

/** Every database the adapters open (they keep it open for later requests), closed before the unmount. */
const opened: SqliteDatabase[] = [];
const open = (path: string, driver?: SqliteDriver) => {
  const db = openSqlite(path, { driver });
  opened.push(db);
  return db;
};
const sqlString = (s: string) => `'${s.replaceAll("'", "''")}'`;

/** Copies the index into a file left in WAL mode, its -wal and -shm files gone (checkpointed at close). */
function walModeCopy(from: string, to: string): void {
  const db = new DatabaseSync(from, { readOnly: true });
  db.exec(`VACUUM INTO ${sqlString(to)}`);
  db.close();
  const copy = new DatabaseSync(to);
  copy.exec('PRAGMA journal_mode = WAL');
  copy.close();
}

const titles = (results: { title: string }[]) => results.map((r) => r.title);
const folder = () => readdirSync(join(mount!.path, '.site-search')).sort();

describe.each(DRIVERS)('an index built by site-search index, on a read-only mount (%s)', (driver) => {
  it('opens with openSqlite() and answers searches, needing nothing beside the file', async () => {
    const before = folder();
    const db = openSqlite(readOnlyIndex(), { driver });
    expect(titles(await searchIndex(config, { db, q: 'otters' }))).toEqual(['Otters']);
    expect(titles(await searchIndex(config, { db, q: 'beaver dams' }))).toEqual(['Beavers']);
    db.close();
    expect(folder()).toEqual(before);
  });

  it('answers through the Next, SvelteKit and node:http adapters', async () => {
    const db = () => open(readOnlyIndex(), driver);
    const url = 'http://site.test/api/search?q=otters';
    const next = await toNextHandler(options, { db, cache: false }).GET(new Request(url));
    const svelte = await toSvelteKitHandler(options, { db, cache: false })({ request: new Request(url) });
    for (const res of [next, svelte]) {
      expect(res.status).toBe(200);
      expect(titles(((await res.json()) as { results: { title: string }[] }).results)).toEqual(['Otters']);
    }
    const server: Server = createServer(toNodeListener(createSearchHandler(options, { db: db(), cache: false })));
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/search?q=otters`);
      expect(res.status).toBe(200);
      expect(titles(((await res.json()) as { results: { title: string }[] }).results)).toEqual(['Otters']);
    } finally {
      server.close();
    }
  });
});

describe('a WAL-mode index on a read-only mount (a push that ran while a server was reading)', () => {
  const walIndex = () => join(mount!.path, '.site-search/wal-mode.db');

  it('node:sqlite reads it as immutable', async () => {
    // The file format's read/write versions (header bytes 18 and 19) are 2 in WAL mode.
    expect([...readFileSync(walIndex()).subarray(18, 20)]).toEqual([2, 2]);
    const db = openSqlite(walIndex());
    expect(titles(await searchIndex(config, { db, q: 'otters' }))).toEqual(['Otters']);
    db.close();
  });

  it('better-sqlite3, which cannot, names the cause and the fix, and so does the endpoint', async () => {
    const expected =
      '[site-search] Could not open the search index at ' +
      walIndex() +
      ': it is in WAL mode, which needs a writable folder beside the file, and its folder is read-only. Rebuild it with "npx site-search index" while no server has it open (a push leaves the file in rollback-journal mode), or open it with the default node:sqlite driver.';
    expect(() => openSqlite(walIndex(), { driver: 'better-sqlite3' })).toThrow(expected);
    const res = await createSearchHandler(options, { db: () => open(walIndex(), 'better-sqlite3'), cache: false })(
      new Request('http://site.test/api/search?q=otters'),
    );
    expect(res.status).toBe(500);
    expect(((await res.json()) as { error: string }).error).toBe(expected.replace('[site-search] ', ''));
  });
});

it('the test really reads through a read-only mount: a push there fails', () => {
  expect(() => execFileSync(process.execPath, [CLI, 'index', '--sqlite', readOnlyIndex()], { cwd: project.dir, stdio: 'pipe' })).toThrow();
});
