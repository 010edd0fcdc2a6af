/**
 * The in-memory typo index (issue 36, item 1) gives the candidates the SQL lookup over `search_vocab` gave, word for
 * word and in order, so `chooseCorrections` makes the same corrections: every misspelling of the tests and the
 * benchmark, in every scope a search has (all, a site, a type, both), on the 1,831 astro-docs pages (the sample
 * without ../shared) plus a second site, after an incremental push (new words get row ids after the old ones, so row
 * order is not term order), on node:sqlite and better-sqlite3. The index is built from the packed rows the push
 * wrote, as a search process builds it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlite, type SqliteDriver } from '../../adapters/node.js';
import { resolveConfig, type SearchDatabase } from '../../src/index.js';
import { buildIndex, writeIndex, type IndexDocument } from '../../src/indexer/index.js';
import { loadTypoIndex } from '../../src/search/packed-vocabulary.js';
import type { TypoIndex, TypoScope } from '../../src/search/typo-index.js';
import { chooseCorrections, correctionLookups } from '../../src/search/typos.js';
import { corpusOptions } from '../../bench/labeled-queries.js';
import { MISSPELLINGS, WORDS } from '../../bench/misspellings.js';
import { sqlTypoLookup } from '../helpers/sql-typo-lookup.js';

const docs = resolveConfig({ ...corpusOptions(), site: 'docs' });
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

describe.each(['node:sqlite', 'better-sqlite3'] as SqliteDriver[])('typo candidates in memory, on %s', (driver) => {
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
