import { expect, it } from 'vitest';
import { openSqlite } from '../../adapters/node.js';
import { ensureSchema, SCHEMA_VERSION } from '../../src/index.js';
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
