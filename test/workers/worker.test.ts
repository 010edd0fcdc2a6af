/**
 * `createWorker` running in workerd (Miniflare) with a real D1 binding and the real Cache API (\`caches.default\`). "The
 * SPEC message" is SPEC.md's 400 text (the project's specification, ../shared/SPEC.md beside the checkout in the project's CI; for users, docs/http-api.md "Errors").
 */
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearchHandler, resolveConfig, searchIndex, type SearchDatabase } from '../../src/index.js';
import { pushStatements } from '../../src/indexer/index.js';
import { segmentUnspaced } from '../../src/text/segment.js';
import { seed, siteDocs } from '../helpers/documents.js';
import { bundleTestWorker } from '../helpers/worker-bundle.js';
import { countRowsRead, observe } from '../helpers/observe.js';

const ORIGIN = 'http://worker.test';
let script: string;
let mf: Miniflare;
let db: SearchDatabase;

const newMiniflare = (withDb: boolean) =>
  new Miniflare({
    modules: true,
    script,
    compatibilityDate: '2026-07-01',
    d1Databases: withDb ? { SEARCH_DB: 'worker-test-db' } : {},
  });

const dbCounts = async () => (await (await mf.dispatchFetch(`${ORIGIN}/__db-calls`)).json()) as { calls: number; rowsRead: number };
const dbCalls = async () => (await dbCounts()).calls;
const OPTIONS = { database: 'worker-test', sources: [{ dir: 'docs', type: 'doc', url: '/docs/:slug' }, { dir: 'blog', type: 'post', url: '/blog/:slug' }] };

beforeAll(async () => {
  script = await bundleTestWorker();
  mf = newMiniflare(true);
  db = (await mf.getD1Database('SEARCH_DB')) as unknown as SearchDatabase;
  await seed(db, siteDocs());
});
afterAll(() => mf?.dispose());

describe('createWorker in workerd with D1 and caches.default', () => {
  it('answers apiRoute with ranked results from D1', async () => {
    const res = await mf.dispatchFetch(`${ORIGIN}/api/search?q=wrangler`);
    expect(res.status).toBe(200);
    expect(res.headers.get('Cache-Control')).toBe('public, max-age=300');
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe('*');
    const body = (await res.json()) as { query: string; results: { title: string; url: string }[] };
    expect(body.query).toBe('wrangler');
    expect(body.results[0]).toMatchObject({ title: 'Deploy to Cloudflare', url: `${ORIGIN}/docs/deploy/cloudflare/` });
  });

  // Issue 48, item 1: the Worker's counting wrappers used to keep only `prepare`, so the search it counted took the plan
  // for SQLite, not D1's. Counted now is the D1 plan: one statement, the rows D1 reports for that plan.
  it('counts the D1 plan: one statement, and the rows the D1 plan reads on the binding (fewer than the SQLite plan)', async () => {
    const before = await dbCounts();
    const res = await mf.dispatchFetch(`${ORIGIN}/api/search?q=release+collections&limit=7`);
    expect(res.headers.get('X-Search-Cache')).toBe('MISS');
    const after = await dbCounts();
    expect(after.calls - before.calls).toBe(1);
    const binding = db as SearchDatabase & { withSession(c: string): SearchDatabase };
    const rowsThrough = async (d: SearchDatabase) => {
      let rows = 0;
      await searchIndex(OPTIONS, { db: countRowsRead(d, (n) => (rows += n)), q: 'release collections', limit: 7 });
      return rows;
    };
    // The same search on the binding from outside (the D1 plan), and through a session, which is not a binding (the other
    // plan); this process reads the index once first, as the Worker had.
    await rowsThrough(binding);
    const [d1Plan, sqlitePlan] = [await rowsThrough(binding), await rowsThrough(binding.withSession('first-primary'))];
    expect(after.rowsRead - before.rowsRead).toBe(d1Plan);
    expect(d1Plan).toBeLessThan(sqlitePlan);
  });

  // Issue 48, item 1: a wrapper that hides a member src/db/d1.ts looks at turns D1 into "some SQLite" for the search.
  it('a counting wrapper leaves the SQL plan as the bare binding chooses it', async () => {
    for (const q of ['collections', 'release collections', 'wrangler']) {
      const plans = (await (await mf.dispatchFetch(`${ORIGIN}/__plans?q=${q}`)).json()) as Record<'bare' | 'wrapped' | 'prepareOnly', string[]>;
      expect(plans.bare.length, q).toBeGreaterThan(0);
      expect(plans.wrapped, q).toEqual(plans.bare);
      // An object with only `prepare` is not D1 to the search: another plan, so this comparison tells plans apart.
      expect(plans.prepareOnly, q).not.toEqual(plans.bare);
    }
  });

  it('serves a repeated query from the Cache API with zero database calls', async () => {
    const url = `${ORIGIN}/api/search?q=Collections&limit=50&utm_source=test`;
    const first = await mf.dispatchFetch(url);
    expect(first.headers.get('X-Search-Cache')).toBe('MISS');
    const firstBody = await first.json();

    // The write runs in ctx.waitUntil after the response: wait until caches.default holds the canonical key.
    const key = `${ORIGIN}/api/search?q=collections&limit=25&offset=0&type=`;
    const caches = (await mf.getCaches()) as unknown as { default: { match(key: string): Promise<unknown> } };
    for (let i = 0; i < 50 && !(await caches.default.match(key)); i++) await new Promise((r) => setTimeout(r, 50));
    expect(await caches.default.match(key)).toBeDefined();

    const before = await dbCalls();
    // Emptying the table proves the answer cannot come from the database.
    await db.prepare('DELETE FROM search_index').run();
    const second = await mf.dispatchFetch(`${ORIGIN}/api/search?q=COLLECTIONS&limit=25&ref=nav`);
    expect(second.status).toBe(200);
    expect(second.headers.get('X-Search-Cache')).toBe('HIT');
    expect(await second.json()).toEqual(firstBody);
    expect(await dbCalls()).toBe(before);

    await seed(db, siteDocs());
  });

  it('answers HEAD and OPTIONS on apiRoute, 405 for other methods, 404 elsewhere', async () => {
    const head = await mf.dispatchFetch(`${ORIGIN}/api/search?q=deploy`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const options = await mf.dispatchFetch(`${ORIGIN}/api/search`, { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    expect(options.headers.get('Access-Control-Allow-Methods')).toBe('GET, HEAD, OPTIONS');
    const post = await mf.dispatchFetch(`${ORIGIN}/api/search`, { method: 'POST', body: '{}' });
    expect(post.status).toBe(405);
    for (const path of ['/', '/api/search/extra', '/api/searchx', '/other']) {
      expect((await mf.dispatchFetch(`${ORIGIN}${path}?q=deploy`)).status).toBe(404);
    }
  });

  // Issue 33, item 10: the 404 said only "Not found", where the dev server names the endpoint (a box asking the wrong
  // path is the usual cause).
  it('answers other paths with a JSON 404 that names the endpoint', async () => {
    for (const path of ['/', '/api/searc', '/api/search/extra', '/search']) {
      const res = await mf.dispatchFetch(`${ORIGIN}${path}?q=deploy`);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type')).toContain('application/json');
      expect(await res.json()).toEqual({ error: 'Not found. The search endpoint is /api/search' });
    }
  });

  it('segments a Chinese query inside workerd the way the indexer segmented the text', async () => {
    await seed(db, [{ title: '路由', content: segmentUnspaced('在 Astro 中，文件决定了路由。'), url: '/zh/routing/' }]);
    // Unsegmented, this phrase would be one token that matches nothing.
    const res = await mf.dispatchFetch(`${ORIGIN}/api/search?q=${encodeURIComponent('文件决定了路由')}`);
    const body = (await res.json()) as { results: { title: string; match: string }[] };
    expect(body.results).toEqual([expect.objectContaining({ title: '路由', match: 'all' })]);
  });

  it('answers 400 with the SPEC message for bad parameters', async () => {
    const res = await mf.dispatchFetch(`${ORIGIN}/api/search?q=deploy&type=nope`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'Invalid type. One of: doc, post' });
  });

  it('filters by tags and counts facets in the one D1 statement of the search, cached apart from the plain answer', async () => {
    const ask = async (query: string) => {
      const before = await dbCalls();
      const res = await mf.dispatchFetch(`${ORIGIN}/api/search?${query}`);
      const body = (await res.json()) as { results: { title: string }[]; facets?: unknown };
      return { body, statements: (await dbCalls()) - before, cache: res.headers.get('X-Search-Cache') };
    };
    // "collections" is on 2 docs (tags "content mdx", "deploy cloudflare") and 2 posts (both "release").
    const counted = await ask('q=collections&facets=type,tags&limit=3');
    expect(counted.statements).toBe(1);
    expect(counted.body.results).toHaveLength(3);
    const pairs = (o: Record<string, number>) => Object.entries(o).map(([value, count]) => ({ value, count }));
    expect(counted.body.facets).toEqual({ type: pairs({ doc: 2, post: 2 }), tags: pairs({ release: 2, cloudflare: 1, content: 1, deploy: 1, mdx: 1 }) });
    const filtered = await ask('q=collections&tags=release&facets=type,tags&limit=3');
    expect(filtered).toMatchObject({ statements: 1, cache: 'MISS' });
    expect(filtered.body.results.map((r) => r.title).sort()).toEqual(['Old announcement', 'Release notes']);
    expect(filtered.body.facets).toEqual({ type: pairs({ post: 2 }), tags: pairs({ release: 2 }) });
    const bad = await mf.dispatchFetch(`${ORIGIN}/api/search?q=deploy&facets=date`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: 'Invalid facets. Any of: type, tags' });
  });

  it('answers 500 naming the binding when D1 is not bound', async () => {
    const bare = newMiniflare(false);
    try {
      const res = await bare.dispatchFetch(`${ORIGIN}/api/search?q=deploy`);
      expect(res.status).toBe(500);
      const { error } = (await res.json()) as { error: string };
      expect(error).toMatch(/^Search database binding "SEARCH_DB" not found/);
      // A Worker of its own gets its bindings from its wrangler config alone: no hosting adapter, no platform proxy
      // (issue 33, item 10: the message spoke of them).
      expect(error).toContain(`Add it to the d1_databases of the Worker's wrangler config ("binding": "SEARCH_DB" in wrangler.jsonc, binding = "SEARCH_DB" in wrangler.toml), then restart wrangler dev or deploy again.`);
      expect(error).not.toMatch(/platform proxy|adapter/);
    } finally {
      await bare.dispose();
    }
  });
});

describe("D1's Sessions API (read replication)", () => {
  it('reads through withSession("first-unconstrained") when the binding has it, never through the plain binding', async () => {
    // The real D1 binding, spied on: which session constraint is asked for, and whether anything skips the session.
    const constraints: string[] = [];
    let plainStatements = 0;
    const binding = db as SearchDatabase & { withSession(c: string): SearchDatabase };
    expect(typeof binding.withSession).toBe('function');
    const spied = {
      prepare: (sql: string) => (plainStatements++, binding.prepare(sql)),
      withSession: (constraint: string) => (constraints.push(constraint), binding.withSession(constraint)),
    };
    const options = { database: 'worker-test', sources: [{ dir: 'docs', type: 'doc', url: '/docs/:slug' }, { dir: 'blog', type: 'post', url: '/blog/:slug' }] };
    const res = await createSearchHandler(options, { db: spied, cache: false })(new Request(`${ORIGIN}/api/search?q=wrangler`));
    const viaSession = ((await res.json()) as { results: { title: string }[] }).results.map((r) => r.title);
    expect(constraints).toEqual(['first-unconstrained']);
    expect(plainStatements).toBe(0);
    // The same answer as the binding read directly; and searchIndex() reads through a session too.
    const direct = (await searchIndex(options, { db: binding.withSession('first-primary'), q: 'wrangler' })).map((r) => r.title);
    expect(viaSession).toEqual(direct);
    expect(viaSession.length).toBeGreaterThan(0);
    await searchIndex(options, { db: spied, q: 'wrangler' });
    expect(constraints).toEqual(['first-unconstrained', 'first-unconstrained']);
    expect(plainStatements).toBe(0);
  });

  it('reads fewer rows through the plan for a billed binding, with the same results', async () => {
    // D1 bills every row a statement reads: through a binding (it has withSession) the search finds the page's rows
    // again by rowid and scores titles without a type filter first. The same database read through a session that
    // hides it (no withSession) takes the plan that spends fewer CPU cycles instead.
    const binding = db as SearchDatabase & { withSession(c: string): SearchDatabase };
    let rowsRead = 0;
    const counted = (d: SearchDatabase) => countRowsRead(d, (rows) => (rowsRead += rows));
    // The counting wrapper passes the binding through whole, withSession included (test/helpers/observe.ts).
    const billed = counted(binding);
    const unbilled = counted(binding.withSession('first-unconstrained'));
    const options = { database: 'worker-test', sources: [{ dir: 'docs', type: 'doc', url: '/docs/:slug' }, { dir: 'blog', type: 'post', url: '/blog/:slug' }] };
    const read = async (d: SearchDatabase, q: string, extra: { type?: string; limit?: number }) => {
      rowsRead = 0;
      const results = await searchIndex(options, { db: d, q, ...extra });
      return { results, rowsRead };
    };
    let saved = 0;
    for (const [q, extra] of [['collections', { limit: 2 }], ['collections', {}], ['release collections', {}], ['collections wrangler', { type: 'doc' }]] as const) {
      const [a, b] = [await read(billed, q, extra), await read(unbilled, q, extra)];
      expect(a.results.length).toBeGreaterThan(0);
      expect(a.results).toEqual(b.results);
      expect(a.rowsRead).toBeLessThanOrEqual(b.rowsRead);
      saved += b.rowsRead - a.rowsRead;
    }
    expect(saved).toBeGreaterThan(0);
  });

  it('reads the matches of a one-word search once: no every-word lookup, where every page found holds the whole query', async () => {
    // Coverage ranking marks the pages holding every word; with one word that is every page it finds, and looking its
    // matches up a second time to say so doubled what a one-word search was billed.
    const binding = db as SearchDatabase & { withSession(c: string): SearchDatabase };
    const options = { database: 'worker-test', sources: [{ dir: 'docs', type: 'doc', url: '/docs/:slug' }, { dir: 'blog', type: 'post', url: '/blog/:slug' }] };
    const search = async (q: string) => {
      const sent: string[] = [];
      const counted = observe(binding, (sql) => sent.push(sql));
      const results = await searchIndex(options, { db: counted, q, limit: 1 });
      return { titles: results.map((r) => r.title), ranking: sent.find((sql) => sql.includes('page_rows'))! };
    };
    await search('the');
    // Words no correction is looked up for (too short), each on several pages, alone and with a second word.
    for (const q of ['the', 'and']) {
      const one = await search(q);
      const two = await search(`${q} release notes`);
      expect(one.titles.length).toBe(1);
      // The every-word lookup is a full-text match of the pages by rowid: absent with one word.
      const lookups = (sql: string) => (sql.match(/EXISTS \(SELECT 1 FROM search_index WHERE search_index MATCH/g) ?? []).length;
      expect(lookups(one.ranking)).toBe(0);
      expect(lookups(two.ranking)).toBeGreaterThan(0);
    }
  });
});

describe('rows read on D1 for the pages of other types', () => {
  // Issue 47, item 5: a search of one type on D1 checked each match's type in search_docs, a billed row for every match
  // in every type, before the filter dropped the other types' pages. The full-text row carries its type, and its
  // columns are not billed apart from the match: a page of another type holding the word now costs its match only.
  it('a page of another type holding the word costs one row (its full-text match), none in search_docs', async () => {
    const own = new Miniflare({ modules: true, script, compatibilityDate: '2026-07-01', d1Databases: { ALONE: 'rows-alone', BESIDE: 'rows-beside' } });
    try {
      // Ten pages of the type searched (enough that no correction is looked up), and beside them in the second
      // database twenty posts holding the word in their body only (no title score reads them).
      const docs = Array.from({ length: 10 }, (_, i) => ({ title: `Guide ${i}`, content: `The quokka setting number ${i}.`, url: `/docs/g${i}/`, type: 'doc' }));
      const posts = Array.from({ length: 20 }, (_, i) => ({ title: `Note ${i}`, content: `A quokka story, part ${i}.`, url: `/blog/n${i}/`, type: 'post' }));
      const alone = (await own.getD1Database('ALONE')) as unknown as SearchDatabase;
      const beside = (await own.getD1Database('BESIDE')) as unknown as SearchDatabase;
      await seed(alone, docs);
      await seed(beside, [...docs, ...posts]);
      const read = async (d: SearchDatabase, q: string) => {
        let rowsRead = 0;
        const results = await searchIndex(OPTIONS, { db: countRowsRead(d, (n) => (rowsRead += n)), q, type: 'doc' });
        return { urls: results.map((r) => r.url), rowsRead };
      };
      // One word (one full-text read), and two (the pages holding both are read apart, a second full-text read).
      for (const [q, reads] of [['quokka', 1], ['quokka setting', 2]] as const) {
        const [a, b] = [await read(alone, q), await read(beside, q)];
        expect(a.urls.length).toBe(10);
        expect(b.urls).toEqual(a.urls);
        expect(b.rowsRead - a.rowsRead).toBeLessThanOrEqual(reads * posts.length);
      }
    } finally {
      await own.dispose();
    }
  });
});

describe('corrections with the vocabulary in memory, inside workerd', () => {
  it('reads the packed vocabulary in the first search, then corrects in two statements, as the first did', async () => {
    // A database with a typo vocabulary (a push writes it; the seed above writes none), in a Worker of its own.
    const own = newMiniflare(true);
    try {
      const d1 = (await own.getD1Database('SEARCH_DB')) as unknown as SearchDatabase & { batch(s: unknown[]): Promise<unknown> };
      const options = { database: 'worker-test', sources: [{ dir: 'docs', type: 'doc', url: '/docs/:slug' }, { dir: 'blog', type: 'post', url: '/blog/:slug' }] };
      const pages = siteDocs().map((d) => ({ description: '', content: '', tags: '', site: '', type: 'doc', date: '', emoji: '', sections: [], ...d }));
      const statements = pushStatements(resolveConfig(options), pages);
      for (let i = 0; i < statements.length; i += 50) await d1.batch(statements.slice(i, i + 50).map((s) => d1.prepare(s)));
      const calls = async () => ((await (await own.dispatchFetch(`${ORIGIN}/__db-calls`)).json()) as { calls: number }).calls;
      const search = async (query: string) => ((await (await own.dispatchFetch(`${ORIGIN}/api/search?${query}`)).json()) as { suggestion?: string; results: { url: string }[] });

      const cold = await search('q=wrnagler');
      expect(cold.suggestion).toBe('wrangler');
      // Two statements: the vocabulary and the pages holding the word as typed, then the ranking.
      expect(await calls()).toBe(2);
      // Another limit, so the edge cache does not answer it: the count, then the ranking.
      const warm = await search('q=wrnagler&limit=9');
      expect(await calls()).toBe(4);
      expect(warm).toEqual(cold);
      // A word spelt right: the ranking alone.
      await search('q=wrangler');
      expect(await calls()).toBe(5);
    } finally {
      await own.dispose();
    }
  });
});
