import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqlite } from '../../adapters/node.js';
import { resolveConfig, searchIndex } from '../../src/index.js';
import { buildIndex, pushIndex, type IndexDocument } from '../../src/indexer/index.js';
import { makeProject } from '../helpers/project.js';

const project = makeProject({
  'content/one.md': '---\ntitle: First post\n---\nAbout penguins.',
  'content/two.md': '---\ntitle: Second post\ndraft: true\n---\nAbout walruses.',
});
afterAll(() => project.cleanup());

const make = (site: string) => resolveConfig({ database: 'd', site, sources: [{ dir: 'content', type: 'post', url: '/blog/:slug' }] });
const doc = (title: string, site: string): IndexDocument => ({ title, description: '', content: 'shared text', tags: '', url: `/${title}`, site, type: 'post', date: '', emoji: '', sections: [] });

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

  it.each(['node:sqlite', 'better-sqlite3'] as const)('builds a new file in one transaction and leaves it in WAL mode (%s)', async (driver) => {
    const config = make('');
    const path = join(project.dir, `fresh-${driver.replace(':', '-')}.db`);
    await pushIndex(config, { kind: 'sqlite', path, driver }, [doc('first', '')]);
    // The file format's read/write versions (header bytes 18 and 19) are 2 in WAL mode, 1 with a rollback journal.
    expect([...readFileSync(path).subarray(18, 20)]).toEqual([2, 2]);
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

  it('writes SQL only with the sql target', async () => {
    const out = join(project.dir, 'out/push.sql');
    await pushIndex(make('s'), { kind: 'sql', out }, [doc('x', 's')]);
    expect(existsSync(out)).toBe(true);
  });
});
