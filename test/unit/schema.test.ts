import { expect, it } from 'vitest';
import { openSqlite } from '../../adapters/node.js';
import { resolveConfig, searchIndex } from '../../src/index.js';
import { ensureSchema, SCHEMA_VERSION } from '../../src/db/schema.js';
import { seed } from '../helpers/documents.js';

const version = async (db: ReturnType<typeof openSqlite>) =>
  (await db.prepare("SELECT value FROM search_meta WHERE key = 'schema_version'").all<{ value: string }>()).results[0]?.value;
const rows = async (db: ReturnType<typeof openSqlite>) =>
  Number((await db.prepare('SELECT count(*) AS n FROM search_index').all<{ n: number }>()).results[0]!.n);

it('records the schema version and keeps rows when it matches', async () => {
  const db = openSqlite(':memory:');
  await seed(db, [{ title: 'kept', url: '/k' }]);
  expect(await version(db)).toBe(String(SCHEMA_VERSION));
  expect(await ensureSchema(db)).toBe(false);
  expect(await rows(db)).toBe(1);
  db.close();
});

it('rebuilds the table when it was made by another schema version', async () => {
  const db = openSqlite(':memory:');
  await seed(db, [{ title: 'old', url: '/o' }]);
  db.exec("UPDATE search_meta SET value = '0' WHERE key = 'schema_version'");
  expect(await ensureSchema(db)).toBe(true);
  expect(await rows(db)).toBe(0);
  expect(await version(db)).toBe(String(SCHEMA_VERSION));
  db.close();
});

it('adopts a search_index table made by astro-d1-search (same definition, no version table)', async () => {
  const db = openSqlite(':memory:');
  db.exec(`CREATE VIRTUAL TABLE search_index USING fts5(title, description, content, tags, url UNINDEXED, site UNINDEXED,
    type UNINDEXED, date UNINDEXED, emoji UNINDEXED, tokenize = 'porter unicode61 remove_diacritics 2')`);
  db.exec("INSERT INTO search_index (title, url) VALUES ('legacy', '/l')");
  expect(await ensureSchema(db)).toBe(false);
  expect(await rows(db)).toBe(1);
  db.close();
});

it('searches a table written without site-search (no side tables) with SPEC.md\'s statement: the pages and order of the literal ranking', async () => {
  const legacy = openSqlite(':memory:');
  legacy.exec(`CREATE VIRTUAL TABLE search_index USING fts5(title, description, content, tags, url UNINDEXED, site UNINDEXED,
    type UNINDEXED, date UNINDEXED, emoji UNINDEXED, tokenize = 'porter unicode61 remove_diacritics 2')`);
  const indexed = openSqlite(':memory:');
  const rows = [
    ['Deploy guide', 'deploy your site', '/a', 'doc', '2026-01-05'],
    ['Deploy notes', 'notes about deploy and hosting', '/b', 'post', ''],
    ['Hosting', 'hosting without deploy', '/c', 'doc', '2020-01-01'],
  ];
  for (const [title, content, url, type, date] of rows) {
    await legacy.prepare("INSERT INTO search_index (title, content, url, site, type, date) VALUES (?, ?, ?, '', ?, ?)").bind(title!, content!, url!, type!, date!).run();
  }
  await seed(indexed, rows.map(([title, content, url, type, date]) => ({ title: title!, content, url: url!, type, date })));
  const options = { database: 'd', sources: [{ dir: 'a', type: 'doc', url: '/:slug' }, { dir: 'b', type: 'post', url: '/:slug' }] };
  // Such a table has none of what the rankings read: it answers SPEC.md's query (every word) and score, computed here
  // the naive way on the table itself; the literal ranking on an index of the same pages finds them in the same order.
  const config = resolveConfig({ ...options, ranking: 'fts5' });
  const now = new Date('2026-02-01T00:00:00Z');
  const today = Math.floor(now.getTime() / 86_400_000);
  for (const args of [{ q: 'deploy' }, { q: 'deploy', type: 'doc' }, { q: 'hosting' }]) {
    const fromLegacy = await searchIndex(config, { db: legacy, now, ...args });
    expect(fromLegacy.length).toBeGreaterThan(0);
    const { results: naive } = await legacy
      .prepare(
        `SELECT url, bm25(search_index, 10, 5, 1, 3) * (CASE WHEN date = '' THEN 1.0 ELSE 1.0 + 0.35 * max(0.0, min(1.0, 1.0 - max(0, ? - (julianday(date) - 2440587.5)) / 1095.0)) END) AS score
          FROM search_index WHERE search_index MATCH ? ${args.type ? 'AND type = ?' : ''} ORDER BY score`,
      )
      .bind(today, `"${args.q}"*`, ...(args.type ? [args.type] : []))
      .all<{ url: string; score: number }>();
    expect(fromLegacy.map((r) => r.url)).toEqual(naive.map((r) => r.url));
    fromLegacy.forEach((r, i) => expect(r.score).toBeCloseTo(naive[i]!.score, 9));
    expect(fromLegacy.map((r) => r.url)).toEqual((await searchIndex(config, { db: indexed, now, ...args })).map((r) => r.url));
  }
  legacy.close();
  indexed.close();
});

it('stores a page\'s sections as one row in a rowid table (a long page spills into overflow pages of its own), one per page', async () => {
  const db = openSqlite(':memory:');
  await seed(db, [{ title: 'page', url: '/p' }]);
  const { results } = await db.prepare("SELECT sql FROM sqlite_master WHERE name = 'search_sections'").all<{ sql: string }>();
  expect(results[0]!.sql).not.toMatch(/WITHOUT\s+ROWID/i);
  db.exec(`INSERT INTO search_sections (page, site, sections) VALUES (1, '', '[["A","a","x"]]')`);
  expect(() => db.exec(`INSERT INTO search_sections (page, site, sections) VALUES (1, '', '[["B","b","y"]]')`)).toThrow(/UNIQUE|PRIMARY KEY/);
  db.close();
});

it('answers an index of an older schema version with SPEC.md\'s statement until its next push, then with the ranking', async () => {
  const db = openSqlite(':memory:');
  // Version 12's tables, as an index pushed by the release before: no scope column, the vocabulary packed per type.
  db.exec(`CREATE TABLE search_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    INSERT INTO search_meta VALUES ('schema_version', '12'), ('vocab_generation', 'abc');
    CREATE VIRTUAL TABLE search_index USING fts5(title, description, content, tags, more, url UNINDEXED, site UNINDEXED,
      type UNINDEXED, date UNINDEXED, emoji UNINDEXED, boost UNINDEXED, tokenize = 'porter unicode61 remove_diacritics 2');
    CREATE TABLE search_vocab_packed (site TEXT NOT NULL, type TEXT NOT NULL, part INTEGER NOT NULL, words TEXT NOT NULL);
    INSERT INTO search_index (title, content, tags, url, site, type) VALUES
      ('Deploy', 'deploy your site', 'ops', '/a', '', 'doc'), ('Hosting', 'hosting and deploy', '', '/b', '', 'doc'), ('Deploy news', 'we deploy', '', '/c', '', 'post');`);
  const config = resolveConfig({ database: 'd', sources: [{ dir: 'a', type: 'doc', url: '/:slug' }, { dir: 'b', type: 'post', url: '/:slug' }] });
  const older = await searchIndex(config, { db, q: 'deploy' });
  expect(older.map((r) => r.url).sort()).toEqual(['/a', '/b', '/c']);
  expect(older.every((r) => r.section === undefined && r.match === 'all')).toBe(true);
  expect((await searchIndex(config, { db, q: 'deploy', type: 'post' })).map((r) => r.url)).toEqual(['/c']);
  expect((await searchIndex(config, { db, q: 'deploy', tags: 'ops' })).map((r) => r.url)).toEqual(['/a']);
  // A misspelling is not corrected there: the vocabulary is not read from an index of another version.
  expect(await searchIndex(config, { db, q: 'deplyo' })).toEqual([]);
  // The next push rebuilds the tables: the search then ranks with the current schema and corrects.
  await seed(db, [{ title: 'Deploy', content: 'deploy your site', url: '/a' }]);
  expect(await version(db)).toBe(String(SCHEMA_VERSION));
  expect((await searchIndex(config, { db, q: 'deploy' })).map((r) => r.url)).toEqual(['/a']);
  db.close();
});
