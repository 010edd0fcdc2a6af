/**
 * Relevance on real content: the 1,831 astro-docs pages and the 80 labeled queries, through the engine as users run
 * it. The floors are the measured figures (docs/benchmarks.md) minus a small margin: a change that makes answers
 * worse for real questions fails here. Peers are compared in `npm run bench:relevance`, not here.
 */
import { ALL_RANKINGS } from '../../src/ranking/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlite, type SqliteDatabase } from '../../adapters/node.js';
import { resolveConfig, searchIndex, type ResolvedConfig } from '../../src/index.js';
import { buildIndex, writeIndex } from '../../src/indexer/index.js';
import { corpusOptions, LABELED_SETS, loadQueries, score, summarize, type LabeledQuery } from '../../bench/labeled-queries.js';
import { HAS_FULL_CORPUS } from '../helpers/corpus.js';
import { normalizeSearchInput } from '../../src/search/query.js';
import { runSearch } from '../../src/search/search.js';

type Ranked = LabeledQuery & { urls: string[]; s: ReturnType<typeof score> };

/** Indexes the corpus into `db` and runs each labeled query through the engine, as users run it: its top 10, scored. */
async function rankAll(config: ResolvedConfig, db: SqliteDatabase, queries: LabeledQuery[]): Promise<Ranked[]> {
  const { documents } = await buildIndex(config);
  await db.transaction(() => writeIndex(db, config, documents));
  const rows: Ranked[] = [];
  for (const q of queries) {
    const urls = (await searchIndex(config, { db, q: q.query, type: q.lang, limit: 10 })).map((r) => r.url);
    rows.push({ ...q, urls, s: score(urls, q.targets) });
  }
  return rows;
}

// Its thresholds are the full corpus's: without ../shared (a clone, a fork's CI) it is skipped, and says so.
describe.skipIf(!HAS_FULL_CORPUS)('relevance on astro-docs', () => {
  const config = HAS_FULL_CORPUS ? resolveConfig(corpusOptions()) : undefined!;
  const queries = HAS_FULL_CORPUS ? loadQueries() : [];
  const db = openSqlite(':memory:');
  afterAll(() => db.close());
  let rows: Ranked[];
  beforeAll(async () => {
    rows = await rankAll(config, db, queries);
  }, 120_000);

  it('answers every labeled query (each has an answer): zero-result rate 0', () => {
    expect(rows.filter((r) => r.urls.length === 0).map((r) => r.query)).toEqual([]);
  });

  it('keeps MRR@10 and success@10 at their measured level', () => {
    const overall = summarize(rows.map((r) => r.s));
    // Measured 0.881 and 98.8% with headings scored (0.852 and 97.5% without; 0.815 and 96.3% with every word first).
    expect(overall.mrr10).toBeGreaterThanOrEqual(0.87);
    expect(overall.success10).toBeGreaterThanOrEqual(0.98);
    // Natural questions, the class every-word-first served worst (0.778): 0.868.
    expect(summarize(rows.filter((r) => r.kind === 'natural').map((r) => r.s)).mrr10).toBeGreaterThanOrEqual(0.82);
  });

  it('points results at the section of a long page that answers the query', async () => {
    const results = await searchIndex(config, { db, q: 'view transitions fallback', type: 'en', limit: 3 });
    expect(results.map((r) => r.section?.url)).toContain('/en/reference/modules/astro-transitions#fallback');
  });

  it('helps each kind of query: natural questions, misspellings, Chinese and Japanese', () => {
    const by = (pick: (r: (typeof rows)[number]) => boolean) => summarize(rows.filter(pick).map((r) => r.s));
    expect(by((r) => r.kind === 'natural').success10).toBeGreaterThanOrEqual(0.85);
    expect(by((r) => r.kind === 'hard').success10).toBeGreaterThanOrEqual(0.8);
    expect(by((r) => r.lang === 'zh-cn').success10).toBeGreaterThanOrEqual(0.85);
    expect(by((r) => r.lang === 'ja').success10).toBe(1);
  });

  // Each widening cause on real pages (issue 23): general mechanisms, checked on words any docs site has.
  const search = (q: string, limit = 10) => runSearch(config, db, normalizeSearchInput(config, { q, type: 'en', limit }), { rankings: ALL_RANKINGS });

  it('ranks the page whose title is the query first, where bm25 over the whole row ranked a longer page first', async () => {
    const literal = resolveConfig({ ...corpusOptions(), ranking: 'fts5' });
    for (const [q, title] of [['layout', 'Layouts'], ['middlew', 'Middleware'], ['cli', 'CLI Commands'], ['endpoint', 'Endpoints']]) {
      expect((await searchIndex(config, { db, q: q!, type: 'en', limit: 1 }))[0]!.title).toBe(title);
      expect((await searchIndex(literal, { db, q: q!, type: 'en', limit: 1 }))[0]!.title).not.toBe(title);
    }
  });

  it('corrects a swap of two neighbouring letters as one edit, and points the page at its section', async () => {
    const { results, suggestion } = await search('cahce');
    expect(suggestion).toBe('cache');
    expect(results[0]).toMatchObject({ url: '/en/guides/caching', match: 'typo' });
    expect(results[0]!.section?.url).toMatch(/^\/en\/guides\/caching#/);
    expect((await search('wrokers')).suggestion).toBe('workers');
  });

  it('corrects an out-of-vocabulary word even when the other words alone fill the page', async () => {
    expect((await search('redirect')).results).toHaveLength(10);
    const { results, suggestion } = await search('middelware redirect');
    expect(suggestion).toBe('middleware redirect');
    // Pages with both words (the corrected one included) come first, not pages with "redirect" alone.
    const both = new Set((await search('middleware redirect', 50)).results.map((r) => r.url));
    expect(results.slice(0, 5).map((r) => r.match)).toEqual(Array(5).fill('typo'));
    expect(results.slice(0, 5).filter((r) => !both.has(r.url))).toEqual([]);
  });

  it('completes a last word typed past its stem, as a search box sends it while someone types', async () => {
    // integration and integrate are stored as their stem integr, which integra* does not start: one page before.
    const whole = (await search('integration')).results.map((r) => r.url);
    for (const typed of ['integra', 'integrat', 'integratio']) {
      const { results, suggestion } = await search(typed);
      expect(suggestion).toBeUndefined();
      expect(results).toHaveLength(10);
      expect(results.every((r) => r.match === 'all')).toBe(true);
      expect(results.filter((r) => whole.includes(r.url)).length).toBeGreaterThanOrEqual(7);
    }
  });

  // The coverage ranking's causes (issue 35), each on real pages.
  const top = async (q: string, n: number) => (await search(q, n)).results;

  it('a filler word does not sink the answer: pages holding every word no longer come first for that alone', async () => {
    // Every-word-first put the pages that happen to say "a", "my", "on" and "own" first (rank 8 and none).
    expect((await top('make a custom 404 page', 1))[0]!.url).toBe('/en/basics/astro-pages');
    expect((await top('run astro on my own node server', 1))[0]!.url).toBe('/en/guides/integrations-guide/node');
    // Question words decide nothing: not the upgrade guides that happen to say "do I".
    const node = await top('which node version do I need', 3);
    expect(node.filter((r) => r.url.startsWith('/en/guides/upgrade-to/'))).toEqual([]);
  });

  it('finds identifiers from their words: get static paths finds getStaticPaths(), define config defineConfig, and marks the identifier', async () => {
    const paths = await top('get static paths', 5);
    expect(paths.map((r) => r.url)).toContain('/en/reference/routing-reference');
    expect(paths.filter((r) => r.snippet.includes('<mark>getStaticPaths</mark>')).length).toBeGreaterThanOrEqual(3);
    const config = await top('define config', 3);
    expect(config[0]!.url).toBe('/en/reference/modules/astro-config');
    expect(config.every((r) => r.snippet.includes('<mark>defineConfig</mark>'))).toBe(true);
    // Typed as one word, it is the word itself.
    expect((await top('defineconfig', 3)).every((r) => r.snippet.includes('<mark>defineConfig</mark>'))).toBe(true);
  });

  it('a section answer lifts its page: a long page whose heading names the question ranks like a short page about it', async () => {
    // The troubleshooting guide (23 headed sections) answers under its heading "document (or window) is not defined"; scored
    // on its whole length it came third, behind pages that merely say "window" and "defined".
    const [first] = await top('window is not defined', 1);
    expect(first!.url).toBe('/en/guides/troubleshooting');
    expect(first!.section?.url).toBe('/en/guides/troubleshooting#document-or-window-is-not-defined');
    // A flag documented under a heading of its own on the long CLI reference: found among the first five (not at all
    // in the first ten before).
    expect((await top('--host', 5)).map((r) => r.url)).toContain('/en/reference/cli-reference');
  });

  it('shows several matching sections of a long page under it, each linked to its heading with a marked snippet', async () => {
    const [reference] = (await top('client:load client:idle', 1));
    expect(reference!.url).toBe('/en/reference/directives-reference');
    const sections = reference!.sections!;
    expect(sections.map((s) => s.url)).toEqual(expect.arrayContaining(['/en/reference/directives-reference#clientload', '/en/reference/directives-reference#clientidle']));
    expect(sections.length).toBe(3);
    for (const section of sections) expect(section.snippet).toMatch(/<mark>(client|load|idle)/i);
  });

  it('splits a punctuated term into its words when no page has it as a phrase', async () => {
    const { results } = await search('middleware:redirect');
    expect(results.length).toBeGreaterThan(0);
    const both = new Set((await search('middleware redirect', 50)).results.map((r) => r.url));
    expect(both.has(results[0]!.url)).toBe(true);
    expect(results[0]!.section).toBeDefined();
  });
});


// Electron's docs are in the repository (test/fixtures/electron-docs): this set runs everywhere.
describe('relevance on the Electron docs (issue 47: 60 questions written from random pages before any engine ran)', () => {
  const set = LABELED_SETS.find((s) => s.name === 'electron')!;
  const config = resolveConfig(corpusOptions(set.corpus));
  const queries = loadQueries(set.queries, set.corpus);
  const db = openSqlite(':memory:');
  afterAll(() => db.close());
  let rows: Ranked[];
  beforeAll(async () => {
    rows = await rankAll(config, db, queries);
  }, 60_000);

  it('answers every question, each in the top 10, at the measured MRR@10', () => {
    expect(rows.filter((r) => r.urls.length === 0).map((r) => r.query)).toEqual([]);
    const overall = summarize(rows.map((r) => r.s));
    // Measured 0.876 and 100% (docs/benchmarks.md, "A second set").
    expect(overall.mrr10).toBeGreaterThanOrEqual(0.85);
    expect(overall.success10).toBe(1);
  });
});
