import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqlite } from '../../adapters/node.js';
import { resolveConfig, searchIndex, type SqlValue } from '../../src/index.js';
import { buildIndex, pushIndex, writeIndex, type IndexDocument } from '../../src/indexer/index.js';
import { DRIVERS } from '../helpers/databases.js';
import { observe } from '../helpers/observe.js';
import { makeProject } from '../helpers/project.js';

const project = makeProject({
  'content/one.md': '---\ntitle: First post\n---\nAbout penguins.',
  'content/two.md': '---\ntitle: Second post\ndraft: true\n---\nAbout walruses.',
});
afterAll(() => project.cleanup());

const make = (site: string) => resolveConfig({ database: 'd', site, sources: [{ dir: 'content', type: 'post', url: '/blog/:slug' }] });
const doc = (title: string, site: string): IndexDocument => ({ title, description: '', content: 'shared text', tags: '', url: `/${title}`, site, type: 'post', date: '', emoji: '', sections: [] });

/** The file format's read/write versions (header bytes 18 and 19): 2 in WAL mode, 1 with a rollback journal. */
function journalMode(path: string): 'wal' | 'rollback' {
  const [read, write] = readFileSync(path).subarray(18, 20);
  if (read === 2 && write === 2) return 'wal';
  if (read === 1 && write === 1) return 'rollback';
  throw new Error(`unexpected file format versions ${read}/${write}`);
}

describe('pushIndex to local SQLite', () => {
  it('writes the default .site-search/search.db relative to cwd', async () => {
    const config = make('');
    const build = await buildIndex(config, { cwd: project.dir });
    expect(build.documents.map((d) => d.title)).toEqual(['First post']);
    expect(build.skipped.draft).toBe(1);
    const result = await pushIndex(config, { kind: 'sqlite' }, build.documents, { cwd: project.dir });
    expect(result.destination).toBe(join(project.dir, '.site-search/search.db'));
    const db = openSqlite(result.destination);
    expect((await searchIndex(config, { db, q: 'penguins' })).map((r) => r.title)).toEqual(['First post']);
    db.close();
  });

  it('replaces only its own site’s rows; an empty site replaces all', async () => {
    const path = join(project.dir, 'sites.db');
    await pushIndex(make('a'), { kind: 'sqlite', path }, [doc('a1', 'a'), doc('a2', 'a')]);
    await pushIndex(make('b'), { kind: 'sqlite', path }, [doc('b1', 'b')]);
    await pushIndex(make('a'), { kind: 'sqlite', path }, [doc('a3', 'a')]);
    const db = openSqlite(path);
    const titles = async () => (await db.prepare('SELECT title FROM search_index ORDER BY title').all<{ title: string }>()).results.map((r) => r.title);
    expect(await titles()).toEqual(['a3', 'b1']);
    await pushIndex(make(''), { kind: 'sqlite', path }, [doc('all', '')]);
    expect(await titles()).toEqual(['all']);
    db.close();
  });

  it.each(['node:sqlite', 'better-sqlite3'] as const)('a push that fails halfway leaves the old index answering (%s)', async (driver) => {
    const path = join(project.dir, `atomic-${driver.replace(':', '-')}.db`);
    const config = make('');
    await pushIndex(config, { kind: 'sqlite', path, driver }, [doc('old', '')]);
    // The fault: row 500 of 1,000 carries a value SQLite cannot bind, so the driver throws mid-insert.
    const docs = Array.from({ length: 1000 }, (_, i) => doc(`new${i}`, ''));
    (docs[500] as unknown as { title: unknown }).title = { not: 'bindable' };
    await expect(pushIndex(config, { kind: 'sqlite', path, driver }, docs)).rejects.toThrow();
    const db = openSqlite(path, { driver });
    expect((await searchIndex(config, { db, q: 'shared' })).map((r) => r.title)).toEqual(['old']);
    db.close();
  });

  it.each(['node:sqlite', 'better-sqlite3'] as const)('builds a new file in one transaction and leaves it in rollback-journal mode (%s)', async (driver) => {
    const config = make('');
    const path = join(project.dir, `fresh-${driver.replace(':', '-')}.db`);
    await pushIndex(config, { kind: 'sqlite', path, driver }, [doc('first', '')]);
    // Rollback-journal mode is what opens on a read-only file system (test/reliability/read-only.test.ts).
    expect(journalMode(path)).toBe('rollback');
    const db = openSqlite(path, { driver });
    expect((await searchIndex(config, { db, q: 'shared' })).map((r) => r.title)).toEqual(['first']);
    db.close();
    // A new file whose build fails halfway holds nothing of it.
    const failed = join(project.dir, `fresh-failed-${driver.replace(':', '-')}.db`);
    const docs = Array.from({ length: 1000 }, (_, i) => doc(`new${i}`, ''));
    (docs[500] as unknown as { title: unknown }).title = { not: 'bindable' };
    await expect(pushIndex(config, { kind: 'sqlite', path: failed, driver }, docs)).rejects.toThrow();
    const after = openSqlite(failed, { driver });
    expect((await after.prepare('PRAGMA integrity_check').all<{ integrity_check: string }>()).results[0]!.integrity_check).toBe('ok');
    expect((await after.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'search%'").all()).results).toEqual([]);
    after.close();
  });

  it.each(['node:sqlite', 'better-sqlite3'] as const)('an existing file is written in WAL mode and left in rollback-journal mode, or in WAL while a server reads it (%s)', async (driver) => {
    const config = make('');
    const path = join(project.dir, `again-${driver.replace(':', '-')}.db`);
    await pushIndex(config, { kind: 'sqlite', path, driver }, [doc('first', '')]);
    await pushIndex(config, { kind: 'sqlite', path, driver }, [doc('second', '')]);
    expect(journalMode(path)).toBe('rollback');
    // A server searches halfway through a push: it reads the old index (in WAL, inside the push's open transaction),
    // and then holds the file in WAL, which the push leaves as it is; the next push with nobody reading switches back.
    const server = openSqlite(path, { driver });
    const during: string[] = [];
    async function* documents() {
      yield doc('third', '');
      during.push(...(await searchIndex(config, { db: server, q: 'shared' })).map((r) => r.title));
    }
    await pushIndex(config, { kind: 'sqlite', path, driver }, documents());
    expect(during).toEqual(['second']);
    expect((await searchIndex(config, { db: server, q: 'shared' })).map((r) => r.title)).toEqual(['third']);
    expect(journalMode(path)).toBe('wal');
    server.close();
    await pushIndex(config, { kind: 'sqlite', path, driver }, [doc('fourth', '')]);
    expect(journalMode(path)).toBe('rollback');
  });

  it('writes SQL only with the sql target', async () => {
    const out = join(project.dir, 'out/push.sql');
    await pushIndex(make('s'), { kind: 'sql', out }, [doc('x', 's')]);
    expect(existsSync(out)).toBe(true);
  });
});

// Through a D1 binding every statement is a round trip and counts against a Worker's queries per invocation; the
// typo vocabulary (thousands of words on a real site) was written a statement per word.
describe('writeIndex through a D1 binding (Miniflare)', () => {
  it('writes and removes the vocabulary in statements of many words, each under D1’s 100 bound values', async () => {
    const { db, close } = await DRIVERS['D1 (Miniflare)']!();
    try {
      const config = make('');
      // Words of letters only (the vocabulary's kind): 'zeb' and the number in base 26.
      const word = (n: number) => `zeb${[...n.toString(26).padStart(3, '0')].map((d) => String.fromCharCode(97 + parseInt(d, 26))).join('')}`;
      const words = (from: number) => Array.from({ length: 60 }, (_, i) => word(from + i)).join(' ');
      const page = (title: string, text: string): IndexDocument => ({ ...doc(title, ''), content: text });
      const statements: { sql: string; params: SqlValue[] }[] = [];
      const spied = observe(db, (sql, params) => statements.push({ sql, params }));
      const vocabulary = async () => (await db.prepare('SELECT count(*) AS n FROM search_vocab').all<{ n: number }>()).results[0]!.n;
      // The vocabulary table's own statements (not search_vocab_packed's, which a push rewrites whole in three).
      const onVocabulary = (verb: string) => statements.filter((s) => new RegExp(`^${verb} (FROM )?search_vocab[ (]`).test(s.sql));

      await writeIndex(spied, config, [page('one', words(0)), page('two', words(100))]);
      const inserted = await vocabulary();
      expect(inserted).toBeGreaterThan(80);
      const inserts = onVocabulary('INSERT INTO');
      expect(inserts.length).toBe(Math.ceil(inserted / 33));
      for (const s of statements) expect(s.params.length).toBeLessThanOrEqual(100);

      // The second page's words go: removed by row id, many per statement.
      statements.length = 0;
      await writeIndex(spied, config, [page('one', words(0))]);
      const removed = inserted - (await vocabulary());
      expect(removed).toBeGreaterThanOrEqual(60);
      expect(onVocabulary('DELETE').length).toBe(Math.ceil(removed / 99));
      const has = async (term: string) => (await db.prepare('SELECT term FROM search_vocab WHERE term = ?').bind(term).all()).results.length;
      expect([await has(word(0)), await has(word(59)), await has(word(100)), await has(word(159))]).toEqual([1, 1, 0, 0]);
    } finally {
      await close();
    }
  });
});
