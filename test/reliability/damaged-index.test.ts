/**
 * Issue 44, item 7: a damaged index fails once, clearly. Real index files (the English pages of the astro-docs sample,
 * pushed by the indexer) damaged as disks and copies damage them: cut in half, replaced by text, two pages of the
 * full-text index overwritten with garbage. Searched through the handler and through node:http (`site-search/node`), on
 * node:sqlite and better-sqlite3, with the server's log (console.error) captured.
 */
import { execFile } from 'node:child_process';
import { closeSync, copyFileSync, mkdirSync, mkdtempSync, openSync, rmSync, statSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest';
import { openSqlite, toNodeListener, type SqliteDriver } from '../../adapters/node.js';
import { createSearchHandler, type SearchOptions } from '../../src/index.js';
import { createLlmsHandler } from '../../src/llms/index.js';
import { buildIndex } from '../../src/indexer/build.js';
import { pushIndex } from '../../src/indexer/push.js';
import { SAMPLE_CORPUS } from '../helpers/corpus.js';
import { makeProject } from '../helpers/project.js';

const options: SearchOptions = { database: 'damaged', sources: [{ dir: join(SAMPLE_CORPUS, 'en'), type: 'doc', url: '/docs/:slug' }] };
const QUERIES = ['astro', 'routing', 'components', 'deploy', 'content', 'integration', 'image', 'markdown', 'config', 'server', 'middleware', 'endpoint', 'typescript', 'styles', 'react'];
const DRIVERS: SqliteDriver[] = ['node:sqlite', 'better-sqlite3'];
const PAGE = 4096;

const dir = mkdtempSync(join(tmpdir(), 'site-search-damaged-'));
const sound = join(dir, 'sound.db');
let log: MockInstance<typeof console.error>;

beforeAll(async () => {
  const { documents } = await buildIndex(options);
  await pushIndex(options, { kind: 'sqlite', path: sound }, documents, { full: true });
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  log?.mockRestore();
  vi.useRealTimers();
});

/** A copy of the sound index, damaged by `damage`. */
function damagedCopy(name: string, damage: (path: string, size: number) => void): string {
  const path = join(dir, `${name}-${Math.random().toString(36).slice(2)}.db`);
  copyFileSync(sound, path);
  damage(path, statSync(path).size);
  return path;
}

const DAMAGE = {
  truncated: (path: string, size: number) => truncateSync(path, Math.floor(size / 2)),
  'not a database': (path: string) => writeFileSync(path, 'hello, this is not a database\n'.repeat(500)),
  /**
   * Two pages of deterministic garbage where the full-text index's B-tree starts (its root page, found in the schema:
   * the file's layout moves with every table a schema version adds, and a place a tenth of the way in now fell in the
   * pages' Markdown, which no search reads).
   */
  'partly corrupt': (path: string) => {
    const sqlite = new DatabaseSync(path, { readOnly: true });
    const { rootpage } = sqlite.prepare("SELECT rootpage FROM sqlite_schema WHERE name = 'search_index_data'").get() as { rootpage: number };
    sqlite.close();
    const garbage = Buffer.alloc(2 * PAGE);
    for (let i = 0; i < garbage.length; i++) garbage[i] = (i * 2654435761) >>> 24;
    const fd = openSync(path, 'r+');
    writeSync(fd, garbage, 0, garbage.length, (rootpage - 1) * PAGE);
    closeSync(fd);
  },
};

/** What each query answers (status and error), in order, and the lines logged meanwhile. */
async function searchAll(search: (q: string) => Promise<Response>): Promise<{ answers: string[]; lines: string[] }> {
  log = vi.spyOn(console, 'error').mockImplementation(() => {});
  const answers: string[] = [];
  for (const q of QUERIES) {
    const res = await search(q);
    answers.push(res.status === 200 ? '200' : `${res.status} ${((await res.json()) as { error: string }).error}`);
  }
  const lines = log.mock.calls.map((args) => args.map((a) => (a instanceof Error ? a.stack : String(a))).join(' '));
  log.mockRestore();
  return { answers, lines };
}

const handlerOver = (path: string, driver: SqliteDriver) => {
  const handler = createSearchHandler(options, { db: () => openSqlite(path, { driver }), cache: false });
  return (q: string) => handler(new Request(`https://docs.example/api/search?q=${q}`));
};

/** The one answer of a damaged index, and that it came at the first failure and never changed after it. */
function answeredOnceDamaged(answers: string[]): string {
  const first = answers.findIndex((a) => a !== '200');
  expect(first, answers.join('\n')).toBeGreaterThanOrEqual(0);
  expect(new Set(answers.slice(first)), 'every answer from the first failure on').toEqual(new Set([answers[first]]));
  return answers[first]!;
}

describe.each(DRIVERS)('a damaged index on %s', (driver) => {
  it.each(['truncated', 'not a database'] as const)('%s: every request answers one 500 naming the file and the fix, logged once in one line', async (kind) => {
    const path = damagedCopy(kind.replace(/ /g, '-'), DAMAGE[kind]);
    const { answers, lines } = await searchAll(handlerOver(path, driver));
    expect(new Set(answers).size).toBe(1);
    expect(answers[0]).toMatch(
      new RegExp(`^500 Search index is damaged: ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\((database disk image is malformed|file is not a database)\\)\\. Rebuild it with "npx site-search index --full"\\.$`),
    );
    expect(lines).toEqual([`[site-search] ${answers[0]!.slice(4)}`]);
  });

  // Repeat attack (issue 44, row 12): a folder at the index's path answered "Search database could not be opened: disk
  // I/O error", naming neither the file nor the fix.
  it('a folder where the index file should be: every request answers one 500 naming it and the fix, logged once', async () => {
    const path = join(dir, `folder-${driver}.db`);
    mkdirSync(path);
    const { answers, lines } = await searchAll(handlerOver(path, driver));
    expect(new Set(answers)).toEqual(new Set([`500 The search index at ${path} is a folder, not a file. Remove the folder and run "npx site-search index", or point sqlitePath at the index file.`]));
    expect(lines).toEqual([`[site-search] ${answers[0]!.slice(4)}`]);
  });

  it('partly corrupt: from the first failing query on, every query answers the same 500; the log names the file once', async () => {
    const path = damagedCopy('partly', DAMAGE['partly corrupt']);
    const check = openSqlite(path, { driver });
    expect((await check.prepare('PRAGMA quick_check(1)').all<{ quick_check: string }>()).results[0]!.quick_check).not.toBe('ok');
    check.close();
    const { answers, lines } = await searchAll(handlerOver(path, driver));
    expect(answeredOnceDamaged(answers)).toBe('500 Search index is damaged: the database file is not a valid SQLite database. Rebuild it with "npx site-search index --full", then restart the server.');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[site-search\] Search index is damaged: \S+ \(.+\); every search answers 500\. Rebuild it with "npx site-search index --full", then restart the server\.$/);
    expect(lines[0]).toContain(path);
  });

  it('logs a damaged index again at most once a minute while it lasts', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const search = handlerOver(damagedCopy('minute', DAMAGE['not a database']), driver);
    expect((await searchAll(search)).lines).toHaveLength(1);
    vi.setSystemTime(Date.now() + 30_000);
    expect((await searchAll(search)).lines).toHaveLength(0);
    vi.setSystemTime(Date.now() + 31_000);
    expect((await searchAll(search)).lines).toHaveLength(1);
  });

  it('through node:http (toNodeListener): the same one 500 for a partly corrupt file, logged once', async () => {
    const path = damagedCopy('http', DAMAGE['partly corrupt']);
    const handler = createSearchHandler(options, { db: () => openSqlite(path, { driver }), cache: false });
    const server: Server = createServer(toNodeListener(handler));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const { answers, lines } = await searchAll((q) => fetch(`http://127.0.0.1:${port}/api/search?q=${q}`));
      expect(answeredOnceDamaged(answers)).toMatch(/^500 Search index is damaged: .* Rebuild it with "npx site-search index --full"/);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(path);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  // Issue 54, item 5: over a zero-length index llms-full.txt answered 200 with 0 bytes, cached 300 s, and llms.txt a
  // 500 with a stack in the log per request.
  it.each(['zero-length', 'truncated', 'not a database', 'partly corrupt'] as const)(
    '%s: llms.txt and llms-full.txt answer the endpoint\'s 500, never a 200, logged as the endpoint logs it',
    async (kind) => {
      const path = damagedCopy(kind.replace(/ /g, '-'), kind === 'zero-length' ? (p) => truncateSync(p, 0) : DAMAGE[kind]);
      const endpoint = await searchAll(handlerOver(path, driver));
      const expected = endpoint.answers.find((a) => a !== '200') ?? '200';
      const llms = createLlmsHandler(options, { db: () => openSqlite(path, { driver }) });
      const server: Server = createServer(toNodeListener(llms));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = server.address() as AddressInfo;
        const routes = ['/llms.txt', '/llms-full.txt'];
        const { answers, lines } = await searchAll(async (q) => {
          const res = await fetch(`http://127.0.0.1:${port}${routes[QUERIES.indexOf(q) % 2]}`);
          if (res.status !== 200) expect(res.headers.get('cache-control')).toBe('no-store');
          return res;
        });
        expect(expected).not.toBe('200');
        if (kind === 'partly corrupt') {
          // llms.txt reads no text and may not meet the damage; llms-full.txt does, and from then on both answer the 500.
          expect(answeredOnceDamaged(answers)).toBe('500 Search index is damaged: the database file is not a valid SQLite database. Rebuild it with "npx site-search index --full", then restart the server.');
        } else expect(new Set(answers)).toEqual(new Set([expected]));
        expect(lines.length).toBeLessThanOrEqual(1);
        expect(lines.join('\n')).not.toMatch(/\n\s+at /);
        if (lines.length) expect(lines[0]).toMatch(/^\[site-search\] Search index is damaged: /);
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    },
  );

  it('site-search index --full writes a new index in place of a damaged one; without --full the push says to use it', async () => {
    const { documents } = await buildIndex(options);
    for (const kind of ['truncated', 'not a database', 'partly corrupt'] as const) {
      const path = damagedCopy('rebuild', DAMAGE[kind]);
      const target = { kind: 'sqlite', path, driver } as const;
      if (kind !== 'partly corrupt') {
        await expect(pushIndex(options, target, documents)).rejects.toThrow('The file is damaged: rebuild it with "npx site-search index --full"');
      }
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      await pushIndex(options, target, documents, { full: true });
      const warned = warn.mock.calls.map((c) => String(c[0]));
      expect(warned).toHaveLength(1);
      expect(warned[0]).toMatch(/^\[site-search\] \S+ was damaged \(.+\); writing a new index in its place\.$/);
      expect(warned[0]).toContain(path);
      warn.mockRestore();
      const { answers } = await searchAll(handlerOver(path, driver));
      expect(answers).toEqual(QUERIES.map(() => '200'));
    }
  });
});

// Repeat attack (issue 44, row 12): `site-search dev` over a damaged index said "run the push with --full", which dev
// does not take (`dev --full` failed the same way); the command that rebuilds it is `site-search index --full`.
describe('site-search dev over a damaged index', () => {
  it('exits with one line naming the file and the command that rebuilds it', { timeout: 60_000 }, async () => {
    const project = makeProject({
      'search.config.json': JSON.stringify({ database: 'damaged-dev', sources: [{ dir: 'docs', type: 'doc', url: '/docs/:slug' }] }),
      'docs/otter.md': '---\ntitle: Otters\n---\nOtters swim.\n',
      '.site-search/search.db': 'hello, this is not a database\n'.repeat(500),
    });
    try {
      const cli = new URL('../../dist/cli.js', import.meta.url).pathname;
      const failed = await promisify(execFile)(process.execPath, [cli, 'dev', '--port', '0'], { cwd: project.dir }).then(
        () => undefined,
        (e: { code: number; stderr: string }) => e,
      );
      expect(failed?.code).toBe(1);
      expect(failed!.stderr.trim().split('\n')).toEqual([
        `[site-search] Could not write the index to ${join(project.dir, '.site-search/search.db')} (file is not a database). The file is damaged: rebuild it with "npx site-search index --full", which writes a new one (the file holds only the index). The previous index is unchanged.`,
      ]);
    } finally {
      project.cleanup();
    }
  });
});
