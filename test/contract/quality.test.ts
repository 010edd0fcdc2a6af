/**
 * Search quality features on every driver (node:sqlite, better-sqlite3, D1 in Miniflare): widening when the literal
 * query finds too little, typo tolerance through the trigram vocabulary, unspaced scripts. Documents are built by the
 * real indexer from Markdown files and written through the driver with writeIndex. "SPEC.md" (the project's specification, ../shared/SPEC.md beside the checkout in the project's CI) is
 * the literal mode: every term required (\`widen: false\`), docs/ranking.md's "Every word".
 */
import { ALL_RANKINGS } from '../../src/ranking/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig, searchIndex, type SearchDatabase } from '../../src/index.js';
import { buildIndex, writeIndex } from '../../src/indexer/index.js';
import { normalizeSearchInput } from '../../src/search/query.js';
import { runSearch } from '../../src/search/search.js';
import { asDeployed } from '../helpers/deployed-search.js';
import { forgetKnownIndexes as forgetTypoIndexes, knownIndex, latestKnownIndex as latestTypoIndex } from '../../src/search/known-index.js';
import { DRIVERS, type TestDatabase } from '../helpers/databases.js';
import { matchExpressions, oneLetterPrefixes } from '../helpers/fts.js';
import { countQueries, observe } from '../helpers/observe.js';
import { makeProject } from '../helpers/project.js';

const project = makeProject({
  'en/typescript.md': '---\ntitle: TypeScript guide\n---\nConfigure TypeScript with a tsconfig.json file and strict mode.',
  'en/authentication.md': '---\ntitle: Authentication\n---\nAdd user login with sessions and cookies.',
  'en/pagination.md': '---\ntitle: Pagination\n---\nPaginate large collections with the paginate() function.',
  'en/collections.md': '---\ntitle: Content collections\n---\nCollections group Markdown files. Query collections with getCollection().',
  'en/images.md': '---\ntitle: Images\n---\nOptimize images and serve them in modern formats for faster pages.',
  'fr/authentification.md': "---\ntitle: Authentification\n---\nL'authentification des utilisateurs avec des sessions.",
  'zh-cn/routing.md': '---\ntitle: 路由\n---\n在 Astro 中，文件决定了路由。动态路由使用方括号，例如 [slug].astro。',
  'en/deploy.md':
    '---\ntitle: Deploy your site\n---\nPick a host.\n\n## Netlify\n\nConnect the repository.\n\n### Options\n\nSet the build command.\n\n## Cloudflare Workers\n\nBind the D1 database in `wrangler.jsonc`.\n\n```sh\n# not a heading\nwrangler deploy\n```\n\n### Options\n\nThe compatibility date matters for workerd.\n',
  'fr/deploiement.md':
    '---\ntitle: Déploiement\n---\nChoisissez un hôte.\n\n## Netlify\n\nConnectez le dépôt.\n\n## Cloudflare\n\nLiez la base D1. Sans elle, le Déploiement ÉCHOUE.\n',
  'zh-cn/vercel.md': '---\ntitle: 部署到 Vercel\n---\n使用适配器把网站部署到Vercel平台。',
  'en/missing.md': '---\ntitle: Missing pages\n---\nWhen a route is not found, the server answers with its not found page.',
  'en/quagga.md': '---\ntitle: Quagga notes\n---\nThe quagga was an extinct equine.',
  'en/quagga-raised.md': '---\ntitle: Quagga notes\nsearch:\n  boost: 3\n---\nThe quagga was an extinct equine.',
  'en/quagga-lowered.md': '---\ntitle: Quagga notes\nsearch:\n  boost: 0.5\n---\nThe quagga was an extinct equine.',
  'en/avatars.md':
    '---\ntitle: Avatars\n---\nProfile pictures.\n\n## Upload\n\nAdd an avatar as a file, and add alt text and an accessible caption.\n\n## Sizes\n\nResize the picture before upload.\n',
});
const NOW = new Date('2026-11-21T12:00:00Z');
const config = resolveConfig({
  database: 'quality',
  sources: [
    { dir: 'en', type: 'en', url: '/en/:slug' },
    { dir: 'fr', type: 'fr', url: '/fr/:slug' },
    { dir: 'zh-cn', type: 'zh-cn', url: '/zh-cn/:slug' },
  ],
});
afterAll(() => project.cleanup());

describe.each(Object.entries(DRIVERS))('search quality: %s', (_name, open) => {
  let handle: TestDatabase;
  let db: SearchDatabase;
  const outcome = (q: string, extra: { type?: string; limit?: number; offset?: number } = {}) =>
    asDeployed(config, db, normalizeSearchInput(config, { q, ...extra }));

  beforeAll(async () => {
    handle = await open();
    db = handle.db;
    const { documents } = await buildIndex(config, { cwd: project.dir });
    await writeIndex(db, config, documents);
  }, 60_000);
  afterAll(() => handle.close());

  // On D1 each statement is a network round trip (issue 52: at most two a search). The first search of a process or
  // isolate reads the vocabulary and the counts of the pages holding the query as typed, then ranks: two. Once the
  // vocabulary is in memory, a search is one statement, and two when a word is corrected or completed (the count of
  // the pages holding it as typed, in the types that would correct it, comes first). The same answers either way.
  it.each([
    ['every term', 'typescript guide', 1, 'all', {}],
    ['any term (each word is in a page, no page has both)', 'paginate cookies', 1, 'any', {}],
    ['no result at all', 'xyzzyq', 1, undefined, {}],
    ['a word in no page and near no indexed word, beside words in pages', 'paginate collections zebra', 1, 'any', {}],
    ['a page beyond the first, within a type', 'collections', 1, 'all', { type: 'en', limit: 1, offset: 1 }],
    ['a misspelled word (letters swapped)', 'wrnagler', 2, 'typo', {}],
    ['a misspelled word beside a correct one', 'cloudflare wrnagler', 2, 'typo', {}],
    // Typed past its stem (collections is stored as collect): completed like a correction.
    ['a last word typed past its stem', 'content collecti', 2, 'all', { type: 'en' }],
    // The last word long and in the index: the page's rows are found by their range.
    ['a misspelled word before a correct one of 7+ letters', 'wrnagler cloudflare', 2, 'typo', { type: 'en' }],
    ['a misspelled word before a correct one of 7+ letters, a page past its results', 'wrnagler cloudflare', 2, undefined, { type: 'en', limit: 1, offset: 1 }],
  ] as const)('runs two statements for the first search, then one, two with a correction: %s', async (_case, q, warmStatements, match, extra) => {
    forgetTypoIndexes();
    const first = countQueries(db);
    const cold = await asDeployed(config, first.db, normalizeSearchInput(config, { q, ...extra }));
    expect(first.count()).toBe(2);
    expect(latestTypoIndex()).toBeDefined();
    const counted = countQueries(db);
    const warm = await asDeployed(config, counted.db, normalizeSearchInput(config, { q, ...extra }));
    expect(counted.count()).toBe(warmStatements);
    expect(warm.results[0]?.match).toBe(match);
    expect(warm).toEqual(cold);
    if (match === 'typo') expect(warm.results[0]).toMatchObject({ title: 'Deploy your site', section: { heading: 'Cloudflare Workers' } });
  });

  it('lists the matching sections under their page, best first, each with its link and a snippet of its text', async () => {
    const d1 = (await outcome('d1 database', { type: 'en' })).results[0]!;
    expect(d1.title).toBe('Deploy your site');
    expect(d1.sections).toEqual([
      { heading: 'Cloudflare Workers', url: '/en/deploy#cloudflare-workers', snippet: 'Bind the <mark>D1</mark> <mark>database</mark> in wrangler.jsonc. # not a heading wrangler deploy' },
    ]);
    // Both "Options" sections match by their heading; the snippet is the start of each text, which has no query word.
    const options = (await outcome('options', { type: 'en' })).results.find((r) => r.title === 'Deploy your site')!;
    expect(options.sections!.map((s) => [s.url, s.snippet])).toEqual([
      ['/en/deploy#options', 'Set the build command.'],
      ['/en/deploy#options-1', 'The compatibility date matters for workerd.'],
    ]);
    expect(options.section).toEqual({ heading: 'Options', url: '/en/deploy#options' });
    // At most `sections`, and none with 0.
    const one = resolveConfig({ ...config, sections: 1 });
    expect((await asDeployed(one, db, normalizeSearchInput(one, { q: 'options', type: 'en' }))).results.find((r) => r.title === 'Deploy your site')!.sections).toHaveLength(1);
    const none = resolveConfig({ ...config, sections: 0 });
    const plain = (await asDeployed(none, db, normalizeSearchInput(none, { q: 'options', type: 'en' }))).results.find((r) => r.title === 'Deploy your site')!;
    expect(plain.sections).toBeUndefined();
    expect(plain.section).toEqual({ heading: 'Options', url: '/en/deploy#options' });
  });

  it("weighs a page by its frontmatter's search.boost: three identical pages rank raised, plain, lowered, by that factor", async () => {
    const { results } = await outcome('quagga', { type: 'en' });
    expect(results.map((r) => r.url)).toEqual(['/en/quagga-raised', '/en/quagga', '/en/quagga-lowered']);
    const [raised, plain, lowered] = results.map((r) => r.score);
    expect(raised! / plain!).toBeCloseTo(3, 9);
    expect(lowered! / plain!).toBeCloseTo(0.5, 9);
  });

  // Issue 34, item 1, in the statements a correction or a completion adds (the contract suite's pages have no typo
  // vocabulary): none ends in a one-letter prefix that punctuation leaves.
  it.each([
    ['a correction', 'wrnagler x-a', 'Deploy your site'],
    ['a correction, the letter after a dot', 'authentcation a.s', 'Authentication'],
    ['a completion after a word and a letter', 'svelte-k paginat', 'Pagination'],
  ] as const)('never searches a one-letter prefix that punctuation leaves, with %s', async (_case, q, page) => {
    forgetTypoIndexes();
    const expressions: string[] = [];
    let statements = 0;
    const watched = observe(db, (sql, params) => (statements++, expressions.push(...matchExpressions(sql, params))));
    const { results } = await asDeployed(config, watched, normalizeSearchInput(config, { q, type: 'en' }));
    // Two statements: the vocabulary and the counts of the query as typed, then the ranking with the correction or
    // the completion, which finds its page; warm, the counts and the ranking.
    expect(statements).toBe(2);
    const warm = await asDeployed(config, watched, normalizeSearchInput(config, { q, type: 'en' }));
    expect(statements).toBe(4);
    for (const expression of expressions) expect(oneLetterPrefixes(expression), expression).toEqual([]);
    expect(results.map((r) => r.title)).toContain(page);
    expect(warm).toEqual({ results, ...(warm.suggestion ? { suggestion: warm.suggestion } : {}) });
  });

  it('applies configured synonyms when searching, one way, as phrases, with no re-index', async () => {
    // Nothing says "404" or "k8s": without synonyms neither finds the page.
    expect((await outcome('404', { type: 'en' })).results).toEqual([]);
    const withSynonyms = resolveConfig({ ...config, synonyms: { '404': ['Not Found'], K8S: ['kubernetes', 'routes'] } });
    const search = (q: string) => asDeployed(withSynonyms, db, normalizeSearchInput(withSynonyms, { q, type: 'en' }));
    const found = await search('404');
    expect(found.results[0]).toMatchObject({ title: 'Missing pages', match: 'all' });
    expect(found.results[0]!.snippet).toContain('<mark>not found</mark>');
    expect(found.suggestion).toBeUndefined();
    // Beside other words, the synonym counts as the word it stands for: every word held.
    expect((await search('404 server')).results[0]).toMatchObject({ title: 'Missing pages', match: 'all' });
    expect((await search('k8s')).results.map((r) => r.title)).toEqual(['Missing pages']);
    // One way: the phrase does not find "404" pages, and a word that only contains a key is not one.
    expect((await search('4040')).results).toEqual([]);
  });

  it('widens to any of the terms when no document has them all, stricter matches first, scores ascending', async () => {
    const { results } = await outcome('paginate collections zebra', { type: 'en' });
    expect(results.map((r) => r.title)).toEqual(expect.arrayContaining(['Pagination', 'Content collections']));
    expect(results.every((r) => r.match === 'any')).toBe(true);
    const scores = results.map((r) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => a - b));

    const mixed = await outcome('collections markdown', { type: 'en' });
    expect(mixed.results[0]).toMatchObject({ title: 'Content collections', match: 'all' });
    expect(mixed.results.slice(1).every((r) => r.match === 'any')).toBe(true);
    expect(mixed.results.map((r) => r.score)).toEqual([...mixed.results.map((r) => r.score)].sort((a, b) => a - b));
  });

  it("marks the words of every step that ran in a widened search's snippets, each phrase read once", async () => {
    const bound: unknown[] = [];
    const seen = observe(db, (_sql, params) => bound.push(...params));
    const { results } = await asDeployed(config, seen, normalizeSearchInput(config, { q: 'collections markdown', type: 'en' }));
    expect(results[0]).toMatchObject({ title: 'Content collections', match: 'all' });
    expect(results[0]!.snippet).toContain('<mark>Markdown</mark>');
    expect(results[0]!.snippet).toContain('<mark>collections</mark>');
    const widened = results.find((r) => r.match === 'any')!;
    expect(widened.snippet).toMatch(/<mark>(collections|markdown)<\/mark>/i);
    // The strict step's phrases are the any-term step's too: no expression the statement binds names one twice.
    expect(bound.filter((p) => typeof p === 'string' && /("collections").*\1/.test(p))).toEqual([]);
  });

  it("returns the same results whichever way the page's rows are found again: by their range or by rowid (D1's plan)", async () => {
    // `rowsBilled` says the database bills rows read (a D1 binding): the page's rows are then found by rowid and each
    // feature of the window looked up by rowid. Without it, a long last prefix takes the range and features are scanned.
    for (const [q, extra] of [['collections', {}], ['collections markdown', { type: 'en' }], ['co', {}], ['wrnagler', {}], ['paginate cookies', {}], ['collections', { type: 'en', limit: 2, offset: 1 }]] as const) {
      const input = normalizeSearchInput(config, { q, ...extra });
      const byRange = await runSearch(config, db, input, { now: NOW, rankings: ALL_RANKINGS });
      expect(byRange.results.length).toBeGreaterThan(0);
      expect(await runSearch(config, db, input, { now: NOW, rowsBilled: true, rankings: ALL_RANKINGS })).toEqual(byRange);
    }
  });

  it('matches every term only (SPEC.md) with widen: false', async () => {
    const strict = resolveConfig({ ...config, widen: false });
    expect(await searchIndex(strict, { db, q: 'paginate collections zebra', type: 'en' })).toEqual([]);
    expect(await searchIndex(strict, { db, q: 'typscript', type: 'en' })).toEqual([]);
    expect((await searchIndex(strict, { db, q: 'paginate collections', type: 'en' })).map((r) => r.title)).toEqual(['Pagination']);
  });

  it('keeps paging stable across widened results', async () => {
    const all = (await outcome('collections markdown files pages', { type: 'en', limit: 6 })).results.map((r) => r.url);
    const page1 = (await outcome('collections markdown files pages', { type: 'en', limit: 3 })).results.map((r) => r.url);
    const page2 = (await outcome('collections markdown files pages', { type: 'en', limit: 3, offset: 3 })).results.map((r) => r.url);
    expect(all.length).toBeGreaterThan(3);
    expect([...page1, ...page2]).toEqual(all);
  });

  it('does not widen when the literal query finds enough', async () => {
    const { results } = await outcome('collections', { type: 'en', limit: 1 });
    expect(results).toHaveLength(1);
    expect(results[0]!.match).toBe('all');
  });

  it('corrects misspelled words within the searched type and says so', async () => {
    const typo = await outcome('typscript', { type: 'en' });
    expect(typo.suggestion).toBe('typescript');
    expect(typo.results[0]).toMatchObject({ title: 'TypeScript guide', match: 'typo' });
    expect(typo.results[0]!.snippet).toContain('<mark>TypeScript</mark>');

    // A French word is a typo in English pages, and an exact word in French ones.
    const en = await outcome('authentification', { type: 'en' });
    expect(en.results[0]).toMatchObject({ title: 'Authentication', match: 'typo' });
    const fr = await outcome('authentification', { type: 'fr' });
    expect(fr.results[0]).toMatchObject({ title: 'Authentification', match: 'all' });
    expect(fr.suggestion).toBeUndefined();
  });

  it('completes a last word typed past its stem, finding what the whole word finds, with no correction to show', async () => {
    // The index holds stems ("collections" is collect), so the prefix collecti* starts none of them.
    const typing = await outcome('content collecti', { type: 'en' });
    const whole = await outcome('content collections', { type: 'en' });
    expect(typing.results[0]).toMatchObject({ title: 'Content collections', match: 'all' });
    expect(typing.results[0]!.snippet).toContain('<mark>collections</mark>');
    expect(typing.suggestion).toBeUndefined();
    expect(typing.results.map((r) => [r.url, r.match])).toEqual(whole.results.map((r) => [r.url, r.match]));
    // Only the last word is being typed: before it, the same letters are a word in no page, near none within its edits.
    const earlier = await outcome('collecti content', { type: 'en' });
    expect(earlier.suggestion).toBeUndefined();
    expect(earlier.results.every((r) => r.match === 'any')).toBe(true);
  });

  it('allows 1 edit for words of 4–7 letters and 2 for longer ones', async () => {
    expect((await outcome('imagez', { type: 'en' })).results[0]?.title).toBe('Images');
    expect((await outcome('imgaez', { type: 'en' })).results).toEqual([]);
    expect((await outcome('paginashun', { type: 'en' })).results).toEqual([]);
    expect((await outcome('paginatoin', { type: 'en' })).results[0]?.title).toBe('Pagination');
  });

  it('points a result at its best-matching section, with the anchor the site generates', async () => {
    const [wrangler] = await searchIndex(config, { db, q: 'wrangler', type: 'en', origin: 'https://docs.example.com' });
    expect(wrangler).toMatchObject({
      title: 'Deploy your site',
      url: 'https://docs.example.com/en/deploy',
      section: { heading: 'Cloudflare Workers', url: 'https://docs.example.com/en/deploy#cloudflare-workers' },
    });
    // The second "Options" heading gets the id options-1, like github-slugger (and Astro) give it.
    const [compat] = await searchIndex(config, { db, q: 'compatibility date', type: 'en' });
    expect(compat!.section).toEqual({ heading: 'Options', url: '/en/deploy#options-1' });
    // Section text is compared without case or accents, like the index compares words.
    const [fr] = await searchIndex(config, { db, q: 'echoue', type: 'fr' });
    expect(fr!.section).toEqual({ heading: 'Cloudflare', url: '/fr/deploiement#cloudflare' });
    // A match outside any headed section (or a page without headings) has no section.
    const [intro] = await searchIndex(config, { db, q: 'pick host', type: 'en' });
    expect(intro!.title).toBe('Deploy your site');
    expect(intro!.section).toBeUndefined();
    // "a" starts every tenth word: it does not pull the result to the section with the most words beginning with a.
    const [avatars] = await searchIndex(config, { db, q: 'resize a picture', type: 'en' });
    expect(avatars!.section).toEqual({ heading: 'Sizes', url: '/en/avatars#sizes' });
  });

  it('finds Chinese words in the middle of a sentence, and returns text without word breaks', async () => {
    const routing = await searchIndex(config, { db, q: '路由', type: 'zh-cn' });
    expect(routing[0]).toMatchObject({ title: '路由', match: 'all' });
    expect(routing[0]!.snippet).toContain('文件决定了<mark>路由</mark>');
    expect(routing[0]!.snippet).not.toContain('\u200B');
    // "动态" is only ever inside the sentence 动态路由使用方括号.
    expect((await searchIndex(config, { db, q: '动态', type: 'zh-cn' })).map((r) => r.title)).toEqual(['路由']);
    // Chinese next to Latin letters with no space: 部署到Vercel.
    expect((await searchIndex(config, { db, q: '如何部署到Vercel', type: 'zh-cn' }))[0]?.title).toBe('部署到 Vercel');
  });
});
