/**
 * The latency bench's floor (issue 36) is derived from what the handler answered: its path (strict, widened,
 * corrected, completed) and the FTS5 expression of that answer. If the handler stops exposing what the derivation
 * reads (a completion shows in no response field; it is read from the first statement's typo candidates), the bench
 * would silently time completions against the uncorrected expression: these fail instead. Real node:sqlite, a real
 * index written by the indexer (vocabulary included).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlite } from '../../adapters/node.js';
import { resolveConfig } from '../../src/index.js';
import { writeIndex, type IndexDocument } from '../../src/indexer/index.js';
import { MARK_OPEN_CODE } from '../../src/text/marks.js';
import { answeredBy, floorReport, floorStatement, rawDriver, type Answered } from '../../bench/perf/answered-floor.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const config = resolveConfig({ database: 'd', sources: [{ dir: 'c', type: 'doc', url: '/:slug' }] });
const page = (i: number, title: string, content: string): IndexDocument => ({
  title,
  description: '',
  content,
  tags: '',
  url: `/d/${i}`,
  site: '',
  type: 'doc',
  date: '',
  emoji: '',
  sections: [],
});
const PAGES = [
  page(1, 'Caching', 'How the cache keeps answers. The cache is cleared on deploy.'),
  page(2, 'Authentication', 'Authentication with sessions and cookies.'),
  page(3, 'Redirects', 'A redirect sends the reader to another page.'),
  page(4, 'Middleware', 'Middleware runs before every page is rendered.'),
  page(5, 'Deploying', 'Deploy the site to a static host.'),
];

describe('the bench floor: what the handler answered', () => {
  const dir = mkdtempSync(join(tmpdir(), 'answered-floor-'));
  const path = join(dir, 'index.db');
  let answer: (q: string, lang: string) => Promise<Answered>;
  let db: ReturnType<typeof openSqlite>;
  beforeAll(async () => {
    const writer = openSqlite(path, { create: true });
    await writer.transaction(() => writeIndex(writer, config, PAGES));
    writer.close();
    db = openSqlite(path);
    answer = await answeredBy(config, db);
  });
  afterAll(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a query every result holds every word of is strict, its floor every word', async () => {
    expect(await answer('cache', 'doc')).toEqual({ path: 'strict', match: '"cache"*', ranked: '"cache"*' });
  });

  it('on the strict path the coverage ranking still ranks any informative word: the wider floor bench:latency sets beside', async () => {
    const { path: taken, match, ranked } = await answer('cache answers', 'doc');
    expect(taken).toBe('strict');
    expect(match).toContain('"cache" AND "answers"*');
    expect(ranked.split(' OR ')).toEqual(expect.arrayContaining(['"cache"', '"answers"*']));
  });

  it('a query no page holds every word of widened, its floor any word', async () => {
    const { path: taken, match } = await answer('cache redirect', 'doc');
    expect(taken).toBe('widened');
    expect(match.split(' OR ')).toEqual(expect.arrayContaining(['"cache"', '"redirect"*']));
  });

  it('a misspelling is corrected, its floor with the corrected word', async () => {
    const { path: taken, match } = await answer('cahce', 'doc');
    expect(taken).toBe('corrected');
    expect(match).toContain('"cache"');
  });

  it('a last word typed past its stem is completed, though no response field says so', async () => {
    const { path: taken, match } = await answer('authenticati', 'doc');
    expect(taken).toBe('completed');
    expect(match).toContain('"authentication"');
  });

  it("the floor statement ranks the answer's pages and snippets them, marked", () => {
    const rows = rawDriver(path).prepare(floorStatement(config)).all('("cahce"* OR "cache")') as { id: number; snippet: string }[];
    expect(rows.map((r) => r.id)).toEqual([1]);
    expect(rows[0]!.snippet).toContain(String.fromCharCode(MARK_OPEN_CODE));
  });
});

describe('the bench floor report', () => {
  it('compares the handler with its floor query by query, slowest ratio first, with each path', () => {
    const mix: [string, string][] = [['a', 'en'], ['b', 'en'], ['c', 'en']];
    const report = floorReport(mix, [2, 9, 3], [1, 3, 3], ['strict', 'corrected', 'widened']);
    expect(report.ratio).toEqual({ p50: 2, p99: 3 });
    expect(report.handler).toEqual({ p50: 3, p99: 9 });
    expect(report.floor).toEqual({ p50: 3, p99: 3 });
    expect(report.ofPercentiles).toEqual({ p50: 1, p99: 3 });
    expect(report.slowest.map((s) => [s.query, s.path, s.ratio])).toEqual([['b', 'corrected', 3], ['a', 'strict', 2], ['c', 'widened', 1]]);
    expect(report.paths).toEqual({ strict: 1, corrected: 1, widened: 1 });
  });
});
