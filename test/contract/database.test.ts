/**
 * One contract suite, run unchanged against every driver: node:sqlite, better-sqlite3 and D1 inside workerd
 * (Miniflare). What passes here behaves the same in development and in production. "The SPEC.md formula" is bm25 ×
 * recency over every word (the project's specification, ../shared/SPEC.md beside the checkout in the project's CI; docs/ranking.md, "Every word", for users).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig, searchIndex, type SearchDatabase, type SearchOptions } from '../../src/index.js';
import { ensureSchema } from '../../src/db/schema.js';
import { DRIVERS, POOLED_DRIVERS, type TestDatabase } from '../helpers/databases.js';
import { matchExpressions, oneLetterPrefixes } from '../helpers/fts.js';
import { observe } from '../helpers/observe.js';
import { daysAgo, NOW, seed, siteDocs, type TestDocument } from '../helpers/documents.js';

const options: SearchOptions = {
  database: 'contract',
  sources: [
    { dir: 'docs', type: 'doc', url: '/docs/:slug' },
    { dir: 'blog', type: 'post', url: '/blog/:slug' },
  ],
};
const config = resolveConfig(options);
const ORIGIN = 'https://example.com';

describe.each(Object.entries({ ...DRIVERS, ...POOLED_DRIVERS }))('database contract: %s', (_name, open) => {
  let handle: TestDatabase;
  let db: SearchDatabase;
  const search = (q: string, extra: Partial<Parameters<typeof searchIndex>[1]> = {}) =>
    searchIndex(config, { db, q, origin: ORIGIN, now: NOW, ...extra });

  beforeAll(async () => {
    handle = await open();
    db = handle.db;
    await seed(db, siteDocs(NOW));
  });
  afterAll(() => handle.close());

  it('ensureSchema is idempotent and keeps rows', async () => {
    expect(await ensureSchema(db)).toBe(false);
    const { results } = await db.prepare('SELECT count(*) AS n FROM search_index').all<{ n: number }>();
    expect(Number(results[0]!.n)).toBe(siteDocs(NOW).length);
  });

  it('returns every result field, with absolute URLs', async () => {
    const [hit] = await search('wrangler deploy');
    expect(hit).toEqual({
      title: 'Deploy to Cloudflare',
      url: 'https://example.com/docs/deploy/cloudflare/',
      type: 'doc',
      date: '',
      tags: 'deploy cloudflare',
      emoji: '',
      snippet: expect.stringContaining('<mark>wrangler</mark> <mark>deploy</mark>'),
      score: expect.any(Number),
      match: 'all',
    });
    expect(hit!.score).toBeLessThan(0);
  });

  it('matches the last term by prefix and folds case and diacritics', async () => {
    expect((await search('collect')).map((r) => r.title)).toContain('Content collections');
    expect((await search('CAFE')).map((r) => r.title)).toEqual(['Café au lait']);
    expect((await search('resume naive')).map((r) => r.title)).toEqual(['Café au lait']);
  });

  it('sorts by ascending score, and a title match outranks a body match', async () => {
    const results = await search('collections');
    const scores = results.map((r) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => a - b));
    expect(results[0]!.title).toBe('Content collections');
    expect(results.length).toBeGreaterThanOrEqual(4);
  });

  it('weights change the order', async () => {
    const contentFirst = resolveConfig({ ...options, weights: { title: 0, description: 0, tags: 0, content: 10 } });
    const results = await searchIndex(contentFirst, { db, q: 'collections', now: NOW });
    expect(results[0]!.title).not.toBe('Content collections');
  });

  it('treats operators and syntax as literal words', async () => {
    // Only one document has all three words; widening appends documents with some of them, after it.
    const words = await search('NEAR OR AND');
    expect(words[0]).toMatchObject({ title: 'Client directives', match: 'all' });
    expect(words.slice(1).every((r) => r.match !== 'all')).toBe(true);
    expect((await search('client:load')).map((r) => r.title)).toEqual(['Client directives']);
    for (const q of ['NEAR(', '"unbalanced', "it's", '* - ^', 'title:deploy', '(((', 'a AND', '""', '`rm -rf`', 'NOT']) {
      await expect(search(q)).resolves.toBeInstanceOf(Array);
    }
  });

  it('drops terms beyond maxTerms', async () => {
    const results = await search('wrangler deploy bind d1 database named wrangler toml nonexistentword');
    expect(results.map((r) => r.title)).toEqual(['Deploy to Cloudflare']);
  });

  it('returns nothing for queries under 2 characters', async () => {
    expect(await search('c')).toEqual([]);
    expect(await search(' d ')).toEqual([]);
  });

  it('escapes markup in snippets except <mark> (untrusted content is safe to render)', async () => {
    const [hit] = await search('escaping');
    expect(hit!.snippet).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(hit!.snippet).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(hit!.snippet).toContain('<mark>escaping</mark>');
    expect(hit!.snippet.replace(/<\/?mark>/g, '')).not.toMatch(/[<>]/);
  });

  it('filters by type', async () => {
    const posts = await search('release', { type: 'post' });
    expect(posts.map((r) => r.type)).toEqual(['post', 'post']);
    expect((await search('release', { type: 'doc' })).map((r) => r.type)).toEqual([]);
  });

  it('pages with limit and offset', async () => {
    const all = await search('collections', { limit: 25 });
    const page = await search('collections', { limit: 2, offset: 1 });
    expect(page.map((r) => r.url)).toEqual(all.slice(1, 3).map((r) => r.url));
  });

  it('boosts recent documents: today × (1 + boost), linear to 1 at windowDays, undated × 1', async () => {
    const today = daysAgo(NOW, 0);
    const body = 'quokka habitat notes';
    await seed(db, [
      { title: 'Recency A', content: body, url: '/r/today', site: 'recency', date: today },
      { title: 'Recency B', content: body, url: '/r/half', site: 'recency', date: daysAgo(NOW, 1095 / 2 + 0.5) },
      { title: 'Recency C', content: body, url: '/r/old', site: 'recency', date: daysAgo(NOW, 3000) },
      { title: 'Recency D', content: body, url: '/r/undated', site: 'recency', date: '' },
      { title: 'Recency E', content: body, url: '/r/future', site: 'recency', date: daysAgo(NOW, -30) },
    ]);
    const scoped = resolveConfig({ ...options, site: 'recency' });
    const results = await searchIndex(scoped, { db, q: 'quokka', now: NOW });
    const score = Object.fromEntries(results.map((r) => [r.url, r.score]));
    const base = score['/r/undated']!;
    expect(base).toBeLessThan(0);
    expect(score['/r/today']! / base).toBeCloseTo(1.35, 9);
    expect(score['/r/future']! / base).toBeCloseTo(1.35, 9);
    expect(score['/r/old']! / base).toBeCloseTo(1, 9);
    expect(score['/r/half']! / base).toBeCloseTo(1 + 0.35 * (1 - 548 / 1095), 9);
    expect(results.slice(0, 2).map((r) => r.url).sort()).toEqual(['/r/future', '/r/today']);

    const noBoost = resolveConfig({ ...options, site: 'recency', recency: { boost: 0 } });
    const flat = await searchIndex(noBoost, { db, q: 'quokka', now: NOW });
    expect(new Set(flat.map((r) => r.score)).size).toBe(1);
  });

  it('scopes searches to config.site when set', async () => {
    const scoped = resolveConfig({ ...options, site: 'recency' });
    expect((await searchIndex(scoped, { db, q: 'collections', now: NOW })).length).toBe(0);
    expect((await searchIndex(scoped, { db, q: 'quokka', now: NOW })).length).toBe(5);
    // An unscoped config sees every site's rows.
    expect((await search('quokka', { limit: 25 })).length).toBe(5);
  });

  it.each(['fts5', 'fields'] as const)('ranks exactly like the naive formula computed in SQL (ranking: %s)', async (ranking) => {
    const docs = randomCorpus(400, `naive-${ranking}`);
    await seed(db, docs);
    const scoped = resolveConfig({ ...options, site: `naive-${ranking}`, ranking });
    for (const q of ['alpha', 'beta gamma', 'de', 'delta', 'epsilon zeta']) {
      for (const [limit, offset] of [[10, 0], [25, 0], [5, 40], [25, 175]] as const) {
        const ours = await searchIndex(scoped, { db, q, limit, offset, now: NOW });
        const naive = await naiveSearch(db, q, limit, offset, ranking);
        expect(ours.map((r) => r.score)).toHaveLength(naive.length);
        ours.forEach((r, i) => expect(r.score).toBeCloseTo(naive[i]!, 9));
      }
    }
  });

  it('field-aware ranking: a page whose title is the query beats a long page repeating the words, and weights.title scales it', async () => {
    // Two pages of the same length: one titled by the word and using it once, a reference page repeating it.
    const filler = (n: number) => Array.from({ length: n }, (_, i) => ['where', 'each', 'option', 'lives', 'and', 'why'][i % 6]).join(' ');
    await seed(db, [
      { title: 'Settings', content: `${filler(590)} settings`, url: '/t/settings', site: 'titles', type: 'doc' },
      {
        title: 'Configuration reference',
        description: 'All settings in one place.',
        content: Array.from({ length: 30 }, () => `settings ${filler(19)}`).join(' '),
        url: '/t/reference',
        site: 'titles',
        type: 'doc',
      },
    ]);
    const titles = (config: SearchOptions) =>
      searchIndex(resolveConfig({ ...config, site: 'titles' }), { db, q: 'settings', now: NOW }).then((rs) => rs.map((r) => r.title));
    expect(await titles({ ...options, ranking: 'fts5' })).toEqual(['Configuration reference', 'Settings']);
    expect(await titles(options)).toEqual(['Settings', 'Configuration reference']);
    expect(await titles({ ...options, weights: { title: 0 } })).toEqual(['Configuration reference', 'Settings']);
  });

  // Issue 34 item 1: FTS5 splits `".a"*` into the prefix `a`, so counting the whole term let punctuation bring the
  // one-letter prefix (every word starting with the letter) back, in the strict and the corrected statements.
  it.each([
    ['zzq .a', undefined],
    ['a.s', undefined],
    ['x-a', undefined],
    ['svelte-k', undefined],
    ['client:l', 'Client directives'],
    ['wrangler.t', 'Deploy to Cloudflare'],
    ['cloudflare\u200bw', 'Deploy to Cloudflare'],
  ])('never searches a one-letter prefix that punctuation leaves: %j', async (q, found) => {
    const expressions: string[] = [];
    const watched = observe(db, (sql, params) => expressions.push(...matchExpressions(sql, params)));
    const results = await searchIndex(config, { db: watched, q, origin: ORIGIN, now: NOW });
    expect(expressions.length).toBeGreaterThan(0);
    for (const expression of expressions) expect(oneLetterPrefixes(expression), expression).toEqual([]);
    // Still an answer: the words around the punctuation, the letter as a whole word.
    if (found) expect(results.map((r) => r.title)).toContain(found);
  });

  it('keeps a prefix of two letters or more after punctuation', async () => {
    const [hit] = await search('client:lo');
    expect(hit).toMatchObject({ title: 'Client directives', match: 'all' });
  });

  it('reports a missing table as an error', async () => {
    const empty = await open();
    try {
      await expect(searchIndex(config, { db: empty.db, q: 'anything' })).rejects.toThrow(/no such table/);
    } finally {
      await empty.close();
    }
  });
});

/**
 * The score written the obvious way. `fts5`: the SPEC.md formula over every word, every match scored and sorted in SQL.
 * `fields` (the coverage ranking, docs/ranking.md), in its two phases: every page holding any word, or two adjacent
 * words written as one, ranked by bm25; the first 100 of them scored again as bm25 plus half the bm25 of the title alone
 * (weights.title 10 / 20) over the same words, times 1.5 for a page holding every word, times recency, and sorted; the
 * pages past the first 100 after them in bm25's order, their scores scaled to come after.
 */
async function naiveSearch(db: SearchDatabase, q: string, limit: number, offset: number, ranking: 'fts5' | 'fields'): Promise<number[]> {
  const today = NOW.toISOString().slice(0, 10);
  const words = q.split(' ');
  const every = `"${words.join('" "')}"*`;
  const recency = `(CASE WHEN date = '' THEN 1 ELSE 1 + 0.35 * max(0, min(1, 1 - max(0, julianday(?) - julianday(date)) / 1095.0)) END)`;
  if (ranking === 'fts5') {
    const { results } = await db
      .prepare(`SELECT bm25(search_index, 10, 5, 1, 3) * ${recency} AS score FROM search_index f WHERE search_index MATCH ? AND site = ? ORDER BY score LIMIT ? OFFSET ?`)
      .bind(today, every, 'naive-fts5', limit, offset)
      .all<{ score: number }>();
    return results.map((r) => r.score);
  }
  const [w1, w2] = words;
  const any = w2 === undefined ? every : `"${w1}" OR "${w2}"* OR "${w1}${w2}"`;
  const everyOrJoined = w2 === undefined ? every : `(${every}) OR "${w1}${w2}"*`;
  const { results } = await db
    .prepare(
      `SELECT f.rowid AS id, bm25(search_index, 10, 5, 1, 3) AS bm, ${recency} AS recency,
         coalesce((SELECT bm25(search_titles) FROM search_titles WHERE search_titles MATCH ? AND rowid = f.rowid), 0) AS title,
         f.rowid IN (SELECT rowid FROM search_index WHERE search_index MATCH ?) AS holds
       FROM search_index f WHERE search_index MATCH ? AND site = ?`,
    )
    .bind(today, any, everyOrJoined, any, 'naive-fields')
    .all<{ id: number; bm: number; recency: number; title: number; holds: number }>();
  const byBm = [...results].sort((a, b) => a.bm - b.bm || a.id - b.id);
  const window = byBm.slice(0, 100).map((r) => ({ id: r.id, score: (r.bm + 0.5 * r.title) * (r.holds ? 1.5 : 1) * r.recency }));
  window.sort((a, b) => a.score - b.score || a.id - b.id);
  const rest = byBm.slice(100);
  const worst = window.at(-1)?.score ?? 0;
  const factor = rest.length && rest[0]!.bm < 0 && rest[0]!.bm < worst ? (worst / rest[0]!.bm) * (1 - 1e-9) : 1;
  return [...window.map((r) => r.score), ...rest.map((r) => r.bm * factor)].slice(offset, offset + limit);
}

/** Deterministic documents over a small vocabulary, with dates spread over ten years, many recent. */
function randomCorpus(n: number, site: string): TestDocument[] {
  let state = 42;
  const rand = () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'deploy', 'design', 'lorem', 'ipsum', 'dolor', 'sit'];
  const text = (k: number) => Array.from({ length: k }, () => words[Math.floor(rand() * words.length)]).join(' ');
  return Array.from({ length: n }, (_, i) => ({
    title: text(3),
    description: text(8),
    content: text(20 + Math.floor(rand() * 200)),
    tags: text(2),
    url: `/n/${i}`,
    site,
    date: rand() < 0.2 ? '' : daysAgo(NOW, Math.floor(rand() * 3650) - 20),
  }));
}
