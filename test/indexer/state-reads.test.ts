/**
 * What an incremental push reads to compare (issue 34, item 6): each few dozen documents' stored rows by URL, and the
 * index's pages (only when some page is gone) and words a few thousand rows at a time, never the whole site at once. Read whole, a no-change push over 1,000,000 files held a million row
 * objects beside the hashes built from them and peaked at 1.43 GB against 0.70 GB for the first push
 * (docs/benchmarks.md, "Memory of a no-change push"). Real SQLite on both drivers; the wrapper only watches the
 * answers go by. Memory itself is measured by bench/push-memory.ts, not asserted here (it varies between runs).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig, type SearchDatabase, type SearchStatement } from '../../src/index.js';
import { writeIndex } from '../../src/indexer/index.js';
import type { IndexDocument } from '../../src/indexer/document.js';
import { STATE_ROWS_PER_READ, URLS_PER_LOOKUP } from '../../src/indexer/sql.js';
import { DRIVERS, type TestDatabase } from '../helpers/databases.js';

/** More pages than one read returns, so a push that reads them whole is caught. */
const PAGES = STATE_ROWS_PER_READ * 2 + 7;
const config = resolveConfig({ database: 'state-reads', site: 'docs', sources: [{ dir: 'content', url: '/:slug/', type: 'docs' }] });

const page = (i: number, text = `page ${i} about otters`): IndexDocument => ({
  title: `Page ${i}`, description: '', content: text, tags: '', url: `/p${i}/`, site: 'docs', type: 'docs', date: '', emoji: '', sections: [],
});

/** The real database, with the size of every answer a query gave kept aside. */
function watchAnswers(db: SearchDatabase): { db: SearchDatabase; largest: () => number } {
  let largest = 0;
  const wrap = (statement: SearchStatement): SearchStatement => ({
    bind: (...values) => wrap(statement.bind(...values)),
    run: () => statement.run(),
    all: async <Row>() => {
      const answer = await statement.all<Row>();
      largest = Math.max(largest, answer.results.length);
      return answer;
    },
  });
  return { db: { prepare: (sql) => wrap(db.prepare(sql)) }, largest: () => largest };
}

// The SQLite drivers, which the CLI's push writes through. A D1 binding reads through the same statements, but writing
// 10,000 pages one statement at a time through Miniflare takes minutes; the CLI's D1 push reads with wrangler instead.
const SQLITE_DRIVERS = Object.keys(DRIVERS).filter((name) => name !== 'D1 (Miniflare)');

describe.each(SQLITE_DRIVERS)('%s: an incremental push reads the index in pages', (driver) => {
  let opened: TestDatabase | undefined;
  afterEach(async () => opened?.close());

  it(`a no-change push over ${PAGES} pages looks its pages up ${URLS_PER_LOOKUP} at a time; a removed page is found reading ${STATE_ROWS_PER_READ} at a time`, async () => {
    opened = await DRIVERS[driver]!();
    const pages = Array.from({ length: PAGES }, (_, i) => page(i));
    await writeIndex(opened.db, config, pages);

    const watched = watchAnswers(opened.db);
    const same = await writeIndex(watched.db, config, pages);
    expect(same).toMatchObject({ pages: PAGES, unchanged: PAGES, added: 0, changed: 0, removed: 0, rowsWritten: 0 });
    expect(watched.largest()).toBeGreaterThan(0);
    expect(watched.largest()).toBeLessThanOrEqual(URLS_PER_LOOKUP);

    // Pages on either side of a read's edge: one edited, one gone, one new, as a full comparison finds them.
    const edge = STATE_ROWS_PER_READ;
    const next = pages.map((d, i) => (i === edge ? page(edge, 'edited: beavers') : d)).filter((_, i) => i !== edge - 1);
    const counts = await writeIndex(watched.db, config, [...next, page(PAGES)]);
    expect(counts).toMatchObject({ pages: PAGES, added: 1, changed: 1, removed: 1, unchanged: PAGES - 2 });
    expect(watched.largest()).toBeLessThanOrEqual(STATE_ROWS_PER_READ);
    const held = async () => Number((await opened!.db.prepare("SELECT count(*) AS n FROM search_docs WHERE site = 'docs'").all<{ n: number }>()).results[0]!.n);
    expect(await held()).toBe(PAGES);

    // One page gone and one URL given twice (documents straight to writeIndex): the index then holds as many pages as
    // were given, so the count alone would say none is gone.
    const twice = await writeIndex(watched.db, config, [...next.slice(1), next[5]!, page(PAGES)]);
    expect(twice).toMatchObject({ removed: 1 });
    expect(await held()).toBe(PAGES - 1);
  }, 120_000);
});
