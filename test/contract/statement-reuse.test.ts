/**
 * A search statement is compiled once and reused (issue 47, item 4). SQLite compiles a statement again, at every run,
 * when a bare parameter it plans by is bound (a LIMIT or OFFSET of `?`, since SQLite 3.47): the search statement took
 * longer to compile than many searches take to run, so a server paid it on every search. Counted with SQLite's own
 * authorizer, which SQLite calls while it compiles a statement (for each table and column it reads): every statement a search
 * sends (each path: every word, a completion, a correction chosen in memory, a page past the first, tags, facets) is
 * run three times on one prepared statement of a real node:sqlite connection, and the last two compile nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlite } from '../../adapters/node.js';
import { resolveConfig, searchIndex, type SqlValue } from '../../src/index.js';
import { buildIndex, writeIndex } from '../../src/indexer/index.js';
import { SECTIONS_TABLE } from '../../src/db/schema.js';
import { forgetKnownIndexes as forgetTypoIndexes, knownIndex, latestKnownIndex as latestTypoIndex } from '../../src/search/known-index.js';
import { corpusOptions } from '../../bench/labeled-queries.js';
import { SAMPLE_CORPUS } from '../helpers/corpus.js';
import { observe } from '../helpers/observe.js';

const config = resolveConfig(corpusOptions(SAMPLE_CORPUS));
const dir = mkdtempSync(join(tmpdir(), 'site-search-reuse-'));
const path = join(dir, 'index.db');

beforeAll(async () => {
  const { documents } = await buildIndex(config);
  const writer = openSqlite(path, { create: true });
  await writeIndex(writer, config, documents);
  writer.close();
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What the endpoint is asked: the query and the other parameters that change the statement's shape. */
const SEARCHES: { q: string; tags?: string; facets?: string; offset?: number; limit?: number }[] = [
  { q: 'astro' },
  { q: 'content collections' },
  { q: 'how do i add a sitemap' },
  { q: 'integrat' },
  { q: 'middelware' },
  { q: 'astro', offset: 10, limit: 5 },
  { q: 'astro', tags: 'guide' },
  { q: 'astro config', facets: 'type,tags' },
];

describe('the search statement is compiled once (node:sqlite)', () => {
  it('runs every statement a search sends again without compiling it', async () => {
    const db = openSqlite(path);
    const sent: { sql: string; params: SqlValue[] }[] = [];
    try {
      forgetTypoIndexes();
      const watched = observe(db, (sql, params) => sent.push({ sql, params }));
      for (const search of SEARCHES) await searchIndex(config, { db: watched, type: 'en', ...search });
      // Once the vocabulary is in memory, a correction or completion is chosen before the ranking statement.
      expect(knownIndex(db)).toBeDefined();
      for (const search of SEARCHES) await searchIndex(config, { db: watched, type: 'en', ...search });
    } finally {
      db.close();
    }
    const searchStatements = sent.filter(({ sql }) => sql.includes('page_rows AS MATERIALIZED'));
    expect(searchStatements.length).toBeGreaterThanOrEqual(SEARCHES.length * 2);

    const raw = new DatabaseSync(path, { readOnly: true });
    try {
      // FTS5 compiles statements of its own while it runs (reading the vocabulary table's content, for one): those read
      // its shadow tables. Compiling a search statement reads the tables it names, every one `search_sections`.
      let compiles = 0;
      raw.setAuthorizer((action, table) => {
        if (action === constants.SQLITE_READ && table === SECTIONS_TABLE) compiles++;
        return constants.SQLITE_OK;
      });
      const again = sent.map(({ sql, params }) => {
        const statement = raw.prepare(sql);
        statement.all(...params);
        const before = compiles;
        statement.all(...params);
        statement.all(...params);
        return { sql: sql.slice(0, 60), compiles: compiles - before };
      });
      expect(again.filter((s) => s.compiles > 0)).toEqual([]);
    } finally {
      raw.close();
    }
  }, 120_000);
});
