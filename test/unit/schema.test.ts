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

it('searches a table written without site-search (no side tables) and ranks it like an indexed one', async () => {
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
  // Such a table has no titles table to score titles on their own: it ranks by the literal formula (ranking: 'fts5'),
  // and with the default ranking it finds the same pages.
  const config = resolveConfig({ ...options, ranking: 'fts5' });
  const now = new Date('2026-02-01T00:00:00Z');
  for (const args of [{ q: 'deploy' }, { q: 'deploy', type: 'doc' }, { q: 'hosting' }]) {
    const fromLegacy = await searchIndex(config, { db: legacy, now, ...args });
    expect(fromLegacy.length).toBeGreaterThan(0);
    expect(fromLegacy).toEqual(await searchIndex(config, { db: indexed, now, ...args }));
    const urls = async (db: typeof legacy) => (await searchIndex(resolveConfig(options), { db, now, ...args })).map((r) => r.url).sort();
    expect(await urls(legacy)).toEqual(await urls(indexed));
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

it('searches an index of schema version 6 (a row per section) without sections until its next push', async () => {
  const db = openSqlite(':memory:');
  const docs = [{ title: 'Deploy', content: 'deploy your site', url: '/a' }, { title: 'Hosting', content: 'hosting and deploy', url: '/b' }];
  await seed(db, docs);
  const options = { database: 'd', sources: [{ dir: 'a', type: 'doc', url: '/:slug' }] };
  const current = await searchIndex(resolveConfig(options), { db, q: 'deploy' });
  db.exec(`DROP TABLE search_sections;
    CREATE TABLE search_sections (page INTEGER NOT NULL, position INTEGER NOT NULL, site TEXT NOT NULL, heading TEXT NOT NULL,
      anchor TEXT NOT NULL, content TEXT NOT NULL, UNIQUE (page, position))`);
  const older = await searchIndex(resolveConfig(options), { db, q: 'deploy' });
  expect(older.map((r) => r.url)).toEqual(current.map((r) => r.url));
  expect(older.every((r) => r.section === undefined)).toBe(true);
  db.close();
});


it('searches an index of schema version 8 (no page boosts in search_docs) until its next push, ranking as without boosts', async () => {
  const db = openSqlite(':memory:');
  const docs = [{ title: 'Deploy', content: 'deploy your site', url: '/a' }, { title: 'Hosting', content: 'hosting and deploy', url: '/b' }];
  await seed(db, docs);
  const options = { database: 'd', sources: [{ dir: 'a', type: 'doc', url: '/:slug' }] };
  const current = await searchIndex(resolveConfig(options), { db, q: 'deploy' });
  db.exec('ALTER TABLE search_docs DROP COLUMN boost');
  const older = await searchIndex(resolveConfig(options), { db, q: 'deploy' });
  expect(older.map((r) => [r.url, r.score])).toEqual(current.map((r) => [r.url, r.score]));
  db.close();
});
