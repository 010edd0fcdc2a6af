/**
 * `list_pages` by keyset (issue 54, item 4b) on node:sqlite and better-sqlite3: a site of 700 pages where one type holds
 * every 60th page, listed by that type through the tool's cursor. Each call reads at most its window of rows in URL
 * order (`LIST_SCAN_ROWS`), so a call may return fewer pages than it could, or none, with the cursor to go on; paging
 * to the end lists each page of the type exactly once, in order. Before, `OFFSET` read every row before the part asked.
 */
import { describe, expect, it } from 'vitest';
import { openSqlite, type SqliteDriver } from '../../adapters/node.js';
import { LIST_SCAN_ROWS, listPages } from '../../src/db/pages.js';
import { seed } from '../helpers/documents.js';

const DRIVERS: SqliteDriver[] = ['node:sqlite', 'better-sqlite3'];
const PAGES = 700;
const docs = Array.from({ length: PAGES }, (_, i) => ({
  title: `Page ${i}`,
  url: `/p/${String(i).padStart(4, '0')}/`,
  type: i % 60 === 7 ? 'rare' : 'common',
}));

describe.each(DRIVERS)('list_pages by keyset on %s', (driver) => {
  it('lists every page of a rare type exactly once, in order, each call reading at most its window', async () => {
    const db = openSqlite(':memory:', { driver });
    await seed(db, docs);
    const expected = docs.filter((d) => d.type === 'rare').map((d) => d.url);
    const listed: string[] = [];
    let calls = 0;
    let empty = 0;
    for (let after: string | undefined = ''; after !== undefined; calls++) {
      const part: Awaited<ReturnType<typeof listPages>> = await listPages(db, '', { type: 'rare', after, limit: 5 });
      listed.push(...part.pages.map((p) => p.url));
      if (part.pages.length === 0) empty++;
      // A call never passes its window: what it lists and where it goes on lie within LIST_SCAN_ROWS rows of its cursor.
      const reached = part.next ?? part.pages.at(-1)?.url;
      if (reached) expect(docs.findIndex((d) => d.url === reached) - docs.findIndex((d) => d.url > after!)).toBeLessThan(LIST_SCAN_ROWS);
      after = part.next;
    }
    expect(listed).toEqual(expected);
    // 12 pages of the type, 5 a call, windows of 250 rows: more calls than pages would take, some of them empty.
    expect(calls).toBeGreaterThanOrEqual(3);
    expect(calls).toBeLessThanOrEqual(Math.ceil(PAGES / LIST_SCAN_ROWS) + Math.ceil(expected.length / 5));
    expect(empty).toBeLessThan(calls);
    // Without a type, each call lists `limit` pages and the cursor goes on from the last.
    const first = await listPages(db, '', { type: '', after: '', limit: 50 });
    expect(first.pages.map((p) => p.url)).toEqual(docs.slice(0, 50).map((d) => d.url));
    expect(first.next).toBe(docs[49]!.url);
    db.close();
  });
});
