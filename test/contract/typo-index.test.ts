/**
 * The in-memory typo index (issue 36, item 1) gives the candidates the SQL lookup over `search_vocab` gave, word for
 * word and in order, so `chooseCorrections` makes the same corrections: every misspelling of the tests and the
 * benchmark, in every scope a search has (all, a site, a type, both), on the 1,831 astro-docs pages (the sample
 * without ../shared) plus a second site, after an incremental push (new words get row ids after the old ones, so row
 * order is not term order), on node:sqlite and better-sqlite3. The index is built from the packed rows the push
 * wrote, as a search process builds it.
 */
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlite, type SqliteDriver } from '../../adapters/node.js';
import { resolveConfig, type SearchDatabase } from '../../src/index.js';
import { buildIndex, pushStatements, writeIndex, type IndexDocument } from '../../src/indexer/index.js';
import { packVocabularyStatements } from '../../src/db/schema.js';
import { insertWords } from '../../src/db/write-plan.js';
import { loadTypoIndex, typoIndexFor, vocabularyGeneration } from '../../src/search/packed-vocabulary.js';
import type { TypoIndex, TypoScope } from '../../src/search/typo-index.js';
import { chooseCorrections, correctionLookups } from '../../src/search/typos.js';
import { corpusOptions } from '../../bench/labeled-queries.js';
import { CORPUS, HAS_FULL_CORPUS } from '../helpers/corpus.js';
import { MISSPELLINGS, WORDS } from '../../bench/misspellings.js';
import { sqlTypoLookup } from '../helpers/sql-typo-lookup.js';
import { countRowsRead } from '../helpers/observe.js';

const docs = resolveConfig({ ...corpusOptions(CORPUS), site: 'docs' });
const blog = resolveConfig({ database: 'bench', site: 'blog', sources: [{ dir: 'blog', type: 'en', url: '/blog/:slug' }] });

/** Pages of a second site sharing words with the first (so a word's rows tie across sites) and adding its own. */
const blogPages: IndexDocument[] = ['Caching workers', 'Middleware patterns', 'Integrations galore'].map((title, i) => ({
  title,
  description: '',
  content: `${title}: cache caches cached caching workers worker middleware integrate integral paginate pagination post${i}`,
  tags: '',
  url: `/blog/${i}`,
  site: 'blog',
  type: i === 2 ? 'news' : 'en',
  date: '',
  emoji: '',
  sections: [],
}));

const SCOPES: TypoScope[] = [
  { site: '', type: '' },
  { site: '', type: 'en' },
  { site: 'docs', type: 'en' },
  { site: 'docs', type: '' },
  { site: 'blog', type: '' },
  { site: '', type: 'fr' },
  { site: '', type: 'de' },
];

let documents: IndexDocument[];
beforeAll(async () => {
  documents = (await buildIndex(docs)).documents;
}, 120_000);

// Its counts and words are the full corpus's: without ../shared (a clone, a fork's CI) it is skipped, as
// helpers/corpus.ts says.
describe.skipIf(!HAS_FULL_CORPUS).each(['node:sqlite', 'better-sqlite3'] as SqliteDriver[])('typo candidates in memory, on %s', (driver) => {
  let db: SearchDatabase & { close(): void };
  let index: TypoIndex;
  beforeAll(async () => {
    db = openSqlite(':memory:', { driver });
    await writeIndex(db, blog, blogPages);
    // A first push without the last hundred pages, then one with them and with new words on others: their words
    // take row ids after the rest.
    await writeIndex(db, docs, documents.slice(0, -100));
    const edited = documents.map((d, i) => (i % 97 === 0 ? { ...d, content: `${d.content} cachee middlewarez paginations workerz` } : d));
    await writeIndex(db, docs, edited);
    index = await loadTypoIndex(db);
  }, 120_000);
  afterAll(() => db.close());

  it('finds the same candidates, in the same order, as the SQL lookup ranked by bm25 and by rank', async () => {
    expect(index.size).toBeGreaterThan(10_000);
    for (const scope of SCOPES) {
      for (const lookup of correctionLookups([...MISSPELLINGS, ...WORDS])) {
        const memory = index.lookup(lookup, scope);
        const where = `${lookup.term} in ${JSON.stringify(scope)}`;
        expect(memory, where).toEqual(await sqlTypoLookup(db, lookup, scope));
        expect(memory, `${where}, by rank`).toEqual(await sqlTypoLookup(db, lookup, scope, { ranked: 'rank' }));
      }
    }
  });

  it('makes the same corrections and completions as the SQL lookup', async () => {
    for (const scope of SCOPES) {
      const lookups = correctionLookups(MISSPELLINGS);
      const sql = await Promise.all(lookups.map(async (l) => (await sqlTypoLookup(db, l, scope)).candidates));
      const memory = lookups.map((l) => index.lookup(l, scope).candidates);
      for (const prefix of [undefined, ...MISSPELLINGS]) {
        expect(chooseCorrections(lookups, memory, prefix), `${prefix} in ${JSON.stringify(scope)}`).toEqual(chooseCorrections(lookups, sql, prefix));
      }
    }
    // Not vacuous: the corrections the behaviour tests expect are among them.
    const en = correctionLookups(['cahce', 'wrokers', 'middelware', 'typscript']);
    const corrected = chooseCorrections(en, en.map((l) => index.lookup(l, { site: '', type: 'en' }).candidates));
    expect([...corrected].map(([term, words]) => [term, words[0]])).toEqual([['cahce', 'cache'], ['wrokers', 'workers'], ['middelware', 'middleware'], ['typscript', 'typescript']]);
  });

  it('says a word spelt right is present and reads no candidates for it', () => {
    for (const lookup of correctionLookups(WORDS)) expect(index.lookup(lookup, { site: 'docs', type: 'en' })).toEqual({ present: true, candidates: [] });
    // A French word is a word of the French pages only.
    const [french] = correctionLookups(['authentification']);
    expect(index.lookup(french!, { site: '', type: 'fr' }).candidates).toEqual([]);
    expect(index.lookup(french!, { site: '', type: 'en' }).candidates).not.toEqual([]);
  });
});

/**
 * On D1 every row a statement reads is billed: a cold isolate reads the packed vocabulary (a few rows) and the
 * generation, where reading the vocabulary table is a row per word (issue 36). The vocabulary is written by the
 * statements a D1 push of these pages writes (its page statements left out: they do not touch the vocabulary), run
 * as one batch inside workerd as wrangler runs a file.
 */
describe('typo index on D1 (Miniflare)', () => {
  let mf: Miniflare;
  let db: SearchDatabase;
  let rowsRead = 0;
  /** The database with every statement's `meta.rows_read` added up: what D1 bills. */
  let billed: SearchDatabase;
  const runBatch = async (statements: string[]) => {
    const res = await mf.dispatchFetch('http://d1.test/', { method: 'POST', body: JSON.stringify(statements) });
    if (!res.ok) throw new Error(await res.text());
  };
  beforeAll(async () => {
    mf = new Miniflare({
      modules: true,
      script: `export default { async fetch(request, env) {
        try { await env.DB.batch((await request.json()).map((sql) => env.DB.prepare(sql))); return new Response('ok'); }
        catch (e) { return new Response(String(e), { status: 500 }); } } }`,
      d1Databases: { DB: `typo-${process.pid}` },
    });
    db = (await mf.getD1Database('DB')) as unknown as SearchDatabase;
    billed = countRowsRead(db, (rows) => (rowsRead += rows));
    const pageTables = /\bsearch_(index|titles|docs|sections|hashes)\b/;
    await runBatch(pushStatements(docs, documents).filter((sql) => sql.startsWith('CREATE') || !pageTables.test(sql)));
  }, 120_000);
  afterAll(() => mf?.dispose());

  const rowsOf = async (read: () => Promise<unknown>) => {
    rowsRead = 0;
    await read();
    return rowsRead;
  };

  it('reads a few rows for a cold isolate where the vocabulary table is a row per word, and then only the generation', async () => {
    const words = (await db.prepare('SELECT count(*) AS n FROM search_vocab').all<{ n: number }>()).results[0]!.n;
    const packed = (await db.prepare('SELECT count(*) AS n FROM search_vocab_packed').all<{ n: number }>()).results[0]!.n;
    const wholeTable = await rowsOf(() => billed.prepare('SELECT rowid, site, type, term FROM search_vocab').all());
    let generation: string | undefined;
    const cold = await rowsOf(async () => {
      generation = await vocabularyGeneration(billed);
      await typoIndexFor(billed, generation!);
    });
    console.log(`[typo index on D1] ${words} vocabulary rows: reading the table read ${wholeTable} rows; a cold isolate ${cold} (${packed} packed rows + the generation)`);
    expect(wholeTable).toBeGreaterThanOrEqual(words);
    expect(cold).toBe(packed + 1);
    // One row per 10,000 words of a type, at most: six languages here.
    expect(packed).toBeLessThanOrEqual(Math.ceil(words / 10_000) + new Set(documents.map((d) => d.type)).size);
    // Warm: the generation only (which the search statement can carry), the index kept.
    expect(await rowsOf(async () => typoIndexFor(billed, (await vocabularyGeneration(billed))!))).toBe(1);
  });

  it('gives D1 the candidates its SQL lookup gave (ranked by rank), and sees a push through a new generation', async () => {
    const index = await typoIndexFor(db, (await vocabularyGeneration(db))!);
    for (const scope of [{ site: '', type: 'en' }, { site: 'docs', type: '' }]) {
      for (const lookup of correctionLookups(MISSPELLINGS)) {
        expect(index.lookup(lookup, scope), `${lookup.term} in ${JSON.stringify(scope)}`).toEqual(await sqlTypoLookup(db, lookup, scope, { ranked: 'rank' }));
      }
    }
    const [cahcee] = correctionLookups(['cahcee']);
    expect(index.lookup(cahcee!, { site: '', type: 'en' }).candidates).not.toContain('cahceez');
    // A push that adds a word repacks the vocabulary under a new generation: the next search loads it.
    const before = await vocabularyGeneration(db);
    await runBatch([insertWords(1).replace('(?, ?, ?)', "('cahceez', 'docs', 'en')"), ...packVocabularyStatements(" WHERE site = 'docs'")]);
    const after = (await vocabularyGeneration(db))!;
    expect(after).not.toBe(before);
    const reloaded = await rowsOf(() => typoIndexFor(billed, after));
    expect(reloaded).toBeGreaterThan(0);
    expect((await typoIndexFor(db, after)).lookup(cahcee!, { site: '', type: 'en' }).candidates).toContain('cahceez');
  });
});

describe('an index without a packed vocabulary', () => {
  it('has no generation, so the search keeps its SQL lookup: an index of another tool, and one before schema version 10', async () => {
    const db = openSqlite(':memory:');
    try {
      expect(await vocabularyGeneration(db)).toBeUndefined();
      db.exec("CREATE TABLE search_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); INSERT INTO search_meta VALUES ('schema_version', '9')");
      expect(await vocabularyGeneration(db)).toBeUndefined();
      await writeIndex(db, blog, blogPages);
      expect(await vocabularyGeneration(db)).toMatch(/^[0-9a-f]{16}$/);
    } finally {
      db.close();
    }
  });
});
