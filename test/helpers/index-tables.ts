/**
 * Every table of an index, read so that two indexes of the same pages compare equal however they were written: rows
 * keyed by a page's row id are read through the page's URL (an incremental push keeps unchanged pages' ids, a rebuild
 * numbers them anew), and each table is read whole as well, so a row left behind by a push (an orphan) shows.
 */
import type { SearchDatabase } from '../../src/index.js';
import { unpackVocabulary, type PackedVocabularyRow } from '../../src/search/site-vocabulary.js';

const QUERIES = {
  // The vocabulary's generation is random per push: only that it is there (and its length) can compare equal.
  meta: "SELECT key, CASE WHEN key = 'vocab_generation' THEN length(value) ELSE value END AS value FROM search_meta ORDER BY key",
  // Each page row with its side row and title row, found by its rowid: a page whose side rows went missing or point
  // elsewhere reads null here.
  pages: `SELECT i.site, i.url, i.title, i.description, i.content, i.tags, i.more, i.type, i.date, i.emoji,
      d.site AS docSite, d.type AS docType, d.day AS docDay, d.url AS docUrl, t.title AS titleRow, t.site AS titleSite
    FROM search_index i LEFT JOIN search_docs d ON d.id = i.rowid LEFT JOIN search_titles t ON t.rowid = i.rowid
    ORDER BY i.site, i.url`,
  docs: 'SELECT site, type, day, url FROM search_docs ORDER BY site, url',
  titles: 'SELECT site, title FROM search_titles ORDER BY site, title',
  sections: `SELECT s.site, d.url, s.sections FROM search_sections s LEFT JOIN search_docs d ON d.id = s.page ORDER BY s.site, d.url, s.sections`,
  // A page's Markdown parts, found through the page's URL (a part whose page is gone reads a null url).
  markdown: `SELECT m.site, d.url, m.part, m.markdown, m.outline FROM search_markdown m LEFT JOIN search_docs d ON d.id = m.page ORDER BY m.site, d.url, m.part`,
  hashes: 'SELECT site, url, hash FROM search_hashes ORDER BY site, url',
  vocabulary: 'SELECT site, type, term FROM search_vocab ORDER BY site, type, term',
} as const;

/** The full-text tables, whose own index FTS5 checks against their rows. */
const FTS_TABLES = ['search_index', 'search_titles', 'search_headings'];

/**
 * Every table's rows, id-free and sorted. Runs FTS5's `integrity-check` on each full-text table first, so an index
 * whose terms disagree with its rows fails here rather than comparing equal.
 */
export async function indexTables(db: SearchDatabase): Promise<Record<keyof typeof QUERIES | 'packedVocabulary', Record<string, unknown>[]>> {
  for (const table of FTS_TABLES) await db.prepare(`INSERT INTO ${table}(${table}) VALUES ('integrity-check')`).run();
  const tables = {} as Record<keyof typeof QUERIES | 'packedVocabulary', Record<string, unknown>[]>;
  for (const [name, sql] of Object.entries(QUERIES) as [keyof typeof QUERIES, string][]) {
    tables[name] = (await db.prepare(sql).all<Record<string, unknown>>()).results.map((row) => ({ ...row }));
  }
  tables.packedVocabulary = await packedVocabulary(db);
  return tables;
}

/**
 * The packed vocabulary's words, sorted, after checking that it is the vocabulary table exactly: each site's distinct
 * words, in byte order, each with the types it is in.
 */
async function packedVocabulary(db: SearchDatabase): Promise<Record<string, unknown>[]> {
  const packed = unpackVocabulary((await db.prepare('SELECT site, part, types, words FROM search_vocab_packed').all<PackedVocabularyRow>()).results);
  const table = (
    await db.prepare(`SELECT site, term, json_group_array(type) AS types FROM (SELECT site, term, type FROM search_vocab ORDER BY site, term, type) GROUP BY site, term ORDER BY site, term`).all<{ site: string; term: string; types: string }>()
  ).results.map((row) => ({ site: row.site, term: row.term, types: JSON.parse(row.types) as string[] }));
  const mismatch = table.findIndex((row, i) => JSON.stringify(row) !== JSON.stringify(packed[i]));
  if (mismatch >= 0 || packed.length !== table.length) {
    throw new Error(`search_vocab_packed differs from search_vocab at ${mismatch}: ${JSON.stringify(packed[mismatch])} vs ${JSON.stringify(table[mismatch])}`);
  }
  return packed;
}
