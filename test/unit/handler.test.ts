/**
 * The endpoint through plain `new Request(...)` over a real node:sqlite database: statuses, messages, headers and the
 * caching rules of SPEC.md (the project's specification, ../shared/SPEC.md beside the checkout in the project's CI; for users, docs/http-api.md "Errors" and "Caching" state the same rules).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openSqlite } from '../../adapters/node.js';
import {
  createMemoryCache,
  createSearchHandler,
  searchIndex,
  SearchInputError,
  type SearchCache,
  type SearchDatabase,
  type SearchOptions,
} from '../../src/index.js';
import { createDevSearchHandler, isDevServer } from '../../src/http/dev-server.js';
import { countQueries, observe } from '../helpers/observe.js';
import { seed, siteDocs } from '../helpers/documents.js';

const options: SearchOptions = {
  database: 'handler-test',
  sources: [
    { dir: 'docs', type: 'doc', url: '/docs/:slug' },
    { dir: 'blog', type: 'post', url: '/blog/:slug' },
  ],
};
const ORIGIN = 'https://site.example';
const get = (query: string, init?: RequestInit) => new Request(`${ORIGIN}/api/search${query}`, init);

let db: ReturnType<typeof openSqlite>;
beforeAll(async () => {
  db = openSqlite(':memory:');
  await seed(db, siteDocs());
});
afterAll(() => db.close());

/** A cache that records keys, backed by the real in-memory cache. */
function recordingCache(): SearchCache & { keys: string[] } {
  const inner = createMemoryCache({ ttlSeconds: 60 });
  const keys: string[] = [];
  return {
    keys,
    match: (key) => inner.match(key),
    put: (key, response) => {
      keys.push(key);
      return inner.put(key, response);
    },
  };
}

describe('GET: success', () => {
  it('answers 200 with the query and ranked results, URLs resolved against the request origin', async () => {
    const handler = createSearchHandler(options, { db, cache: false });
    const res = await handler(get('?q=Collections'));
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('application/json; charset=utf-8');
    const body = await res.json();
    expect(body.query).toBe('collections');
    expect(body.results.length).toBeGreaterThan(1);
    expect(body.results[0]).toMatchObject({ title: 'Content collections', url: `${ORIGIN}/docs/content-collections/`, emoji: '📚' });
    const scores = body.results.map((r: { score: number }) => r.score);
    expect(scores).toEqual([...scores].sort((a: number, b: number) => a - b));
  });

  it('returns an empty result set, not an error, for a query under 2 characters', async () => {
    const handler = createSearchHandler(options, { db, cache: false });
    for (const q of ['', '?q=', '?q=a', '?q=%20b%20']) {
      const res = await handler(get(q));
      expect(res.status).toBe(200);
      expect((await res.json()).results).toEqual([]);
    }
  });

  it('counts the 2-character minimum in characters: one emoji is too short, without a database call', async () => {
    const counted = countQueries(db);
    const handler = createSearchHandler(options, { db: counted.db, cache: false });
    const res = await handler(get(`?q=${encodeURIComponent('😀')}`));
    expect(await res.json()).toEqual({ query: '😀', results: [] });
    expect(counted.count()).toBe(0);
  });

  it('defaults limit to 10 and clamps it to maxLimit', async () => {
    const many = openSqlite(':memory:');
    await seed(many, Array.from({ length: 40 }, (_, i) => ({ title: `Page ${i}`, content: 'shared words here', url: `/p/${i}` })));
    const handler = createSearchHandler(options, { db: many, cache: false });
    expect((await (await handler(get('?q=shared'))).json()).results).toHaveLength(10);
    expect((await (await handler(get('?q=shared&limit=1000'))).json()).results).toHaveLength(25);
    expect((await (await handler(get('?q=shared&limit=3&offset=38'))).json()).results).toHaveLength(2);
    many.close();
  });

  it('ignores unknown query parameters', async () => {
    const handler = createSearchHandler(options, { db, cache: false });
    const plain = await (await handler(get('?q=deploy'))).json();
    const extra = await (await handler(get('?q=deploy&utm_source=x&page=9&q2=zzz'))).json();
    expect(extra).toEqual(plain);
  });

  it('opens a db given as a function once, on the first request that needs it', async () => {
    let opened = 0;
    const handler = createSearchHandler(options, { db: () => (opened++, db), cache: false });
    expect(opened).toBe(0);
    await handler(get('?q=a'));
    expect(opened).toBe(0);
    await handler(get('?q=deploy'));
    await handler(get('?q=collections'));
    expect(opened).toBe(1);
  });

  it('takes the database from env[binding] when no db is given', async () => {
    const handler = createSearchHandler({ ...options, binding: 'MY_DB' }, { cache: false });
    const res = await handler(get('?q=deploy'), { MY_DB: db });
    expect(res.status).toBe(200);
    expect((await res.json()).results[0].title).toBe('Deploy to Cloudflare');
  });
});

describe('errors (SPEC "Errors")', () => {
  const handler = createSearchHandler(options, { db, cache: false });
  const errorOf = async (query: string) => {
    const res = await handler(get(query));
    return { status: res.status, body: await res.json(), cacheControl: res.headers.get('Cache-Control'), cors: res.headers.get('Access-Control-Allow-Origin') };
  };

  it.each([
    ['?q=astro&limit=0', 'Invalid limit'],
    ['?q=astro&limit=-5', 'Invalid limit'],
    ['?q=astro&limit=2.5', 'Invalid limit'],
    ['?q=astro&limit=ten', 'Invalid limit'],
    ['?q=astro&offset=-1', 'Invalid offset (0 to 200)'],
    ['?q=astro&offset=201', 'Invalid offset (0 to 200)'],
    ['?q=astro&type=page', 'Invalid type. One of: doc, post'],
    [`?q=${'x'.repeat(101)}`, 'Query too long (max 100 characters)'],
  ])('%s → 400 %s', async (query, message) => {
    const e = await errorOf(query);
    expect(e.status).toBe(400);
    expect(e.body).toEqual({ error: message });
    expect(e.cacheControl).toBe('no-store');
    expect(e.cors).toBe('*');
  });

  it('500 with the binding name and the fix when the binding is missing', async () => {
    const noDb = createSearchHandler(options, { cache: false });
    for (const env of [undefined, {}, { SEARCH_DB: 'not a database' }]) {
      const res = await noDb(get('?q=astro'), env);
      expect(res.status).toBe(500);
      const { error } = await res.json();
      expect(error).toMatch(/^Search database binding "SEARCH_DB" (not found|is not a database)/);
      expect(error).toContain('platform proxy');
      expect(error).toContain('d1_databases');
    }
  });

  it('500 saying to run the indexer when the table does not exist', async () => {
    const empty = openSqlite(':memory:');
    const res = await createSearchHandler(options, { db: empty, cache: false })(get('?q=astro'));
    expect(res.status).toBe(500);
    expect((await res.json()).error).toMatch(/search_index table does not exist.*site-search index/);
    empty.close();
  });

  it('500 naming the index file as configured (never the server\'s folders) and the fix, and no empty file left behind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'site-search-missing-'));
    try {
      for (const path of [join(dir, 'search.db'), join(dir, 'not-built/search.db')]) {
        const missing = createSearchHandler(options, { db: () => openSqlite(path), cache: false });
        const res = await missing(get('?q=astro'));
        expect(res.status).toBe(500);
        expect(await res.json()).toEqual({ error: `Local search index not found at ${path}. Run "npx site-search index" in your project folder, and start the server from there.` });
        expect(existsSync(path)).toBe(false);
      }
      // A relative path (as the docs configure it) is shown as written, never resolved: visitors see this answer.
      const relative = createSearchHandler(options, { db: () => openSqlite('.no-index-here/search.db'), cache: false });
      const { error } = (await (await relative(get('?q=astro'))).json()) as { error: string };
      expect(error).toBe(
        'Local search index not found at .no-index-here/search.db (relative to the folder the server was started in). Run "npx site-search index" in your project folder, and start the server from there.',
      );
      expect(error).not.toContain(process.cwd());
      expect(existsSync('.no-index-here')).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('405 with Allow for other methods', async () => {
    const res = await handler(get('?q=astro', { method: 'POST', body: 'x' }));
    expect(res.status).toBe(405);
    expect(res.headers.get('Allow')).toBe('GET, HEAD, OPTIONS');
  });
});

describe('headers', () => {
  it('sends Cache-Control public, max-age=<cacheMaxAge> and CORS when cors is on (default)', async () => {
    const res = await createSearchHandler(options, { db, cache: false })(get('?q=deploy'));
    expect(res.headers.get('Cache-Control')).toBe('public, max-age=300');
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe('*');
    const custom = await createSearchHandler({ ...options, cacheMaxAge: 60 }, { db, cache: false })(get('?q=deploy'));
    expect(custom.headers.get('Cache-Control')).toBe('public, max-age=60');
  });

  it('sends no CORS header at all when cors is false, on success, error and preflight', async () => {
    const handler = createSearchHandler({ ...options, cors: false }, { db, cache: false });
    for (const request of [get('?q=deploy'), get('?limit=0'), get('', { method: 'OPTIONS' })]) {
      const res = await handler(request);
      expect(res.headers.has('Access-Control-Allow-Origin')).toBe(false);
      expect(res.headers.has('Access-Control-Allow-Methods')).toBe(false);
    }
  });

  it('answers CORS preflight with 204', async () => {
    const res = await createSearchHandler(options, { db })(get('', { method: 'OPTIONS' }));
    expect(res.status).toBe(204);
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe('*');
    expect(res.headers.get('Access-Control-Allow-Methods')).toBe('GET, HEAD, OPTIONS');
  });

  it('answers HEAD with the GET headers and no body', async () => {
    const res = await createSearchHandler(options, { db, cache: false })(get('?q=deploy', { method: 'HEAD' }));
    expect(res.status).toBe(200);
    expect(res.headers.get('Cache-Control')).toBe('public, max-age=300');
    expect(await res.text()).toBe('');
  });
});

describe('caching (SPEC caching rules 1–8)', () => {
  it('rules 1–4: keys on q (lowercased), clamped limit, offset and type, in that order', async () => {
    const cache = recordingCache();
    const handler = createSearchHandler(options, { db, cache });
    await handler(get('?type=doc&limit=1000&utm=1&q=Content%20COLLECTIONS&offset=2'));
    expect(cache.keys).toEqual([`${ORIGIN}/api/search?q=content%20collections&limit=25&offset=2&type=doc`]);
  });

  it('rules 5–6: case, encoding and extra parameters share one entry, served without touching the database', async () => {
    const counted = countQueries(db);
    const handler = createSearchHandler(options, { db: counted.db, cache: recordingCache() });
    const first = await handler(get('?q=Content+Collections&limit=30'));
    expect(first.headers.get('X-Search-Cache')).toBe('MISS');
    const queries = counted.count();
    expect(queries).toBeGreaterThan(0);
    for (const query of ['?q=content%20collections&limit=25', '?q=CONTENT%20collections&limit=99&ref=nav', '?limit=25&q=content+COLLECTIONS']) {
      const res = await handler(get(query));
      expect(res.headers.get('X-Search-Cache')).toBe('HIT');
      expect(await res.json()).toEqual(await first.clone().json());
    }
    expect(counted.count()).toBe(queries);
    // A different query is a different entry.
    await handler(get('?q=content collections&offset=1'));
    expect(counted.count()).toBeGreaterThan(queries);
  });

  it('rule 7: the cache write goes to ctx.waitUntil and does not delay the response', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const inner = createMemoryCache({ ttlSeconds: 60 });
    const slowCache: SearchCache = {
      match: (key) => inner.match(key),
      put: async (key, response) => {
        await gate;
        await inner.put(key, response);
      },
    };
    const pending: Promise<unknown>[] = [];
    const handler = createSearchHandler(options, { db, cache: slowCache });
    const res = await handler(get('?q=deploy'), undefined, { waitUntil: (p) => pending.push(p) });
    expect(res.status).toBe(200);
    expect(pending).toHaveLength(1);
    expect(await inner.match(`${ORIGIN}/api/search?q=deploy&limit=10&offset=0&type=`)).toBeUndefined();
    release();
    await Promise.all(pending);
    expect(await inner.match(`${ORIGIN}/api/search?q=deploy&limit=10&offset=0&type=`)).toBeInstanceOf(Response);
  });

  it('rule 7: without a ctx the write is awaited, so the next request hits', async () => {
    const cache = recordingCache();
    const handler = createSearchHandler(options, { db, cache });
    await handler(get('?q=deploy'));
    expect((await handler(get('?q=deploy'))).headers.get('X-Search-Cache')).toBe('HIT');
  });

  it('rule 8: entries live for cacheMaxAge seconds in the default in-memory cache', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-21T00:00:00Z'), toFake: ['Date', 'performance'] });
    try {
      const counted = countQueries(db);
      const handler = createSearchHandler({ ...options, cacheMaxAge: 60 }, { db: counted.db });
      await handler(get('?q=deploy'));
      const queries = counted.count();
      vi.advanceTimersByTime(59_000);
      expect((await handler(get('?q=deploy'))).headers.get('X-Search-Cache')).toBe('HIT');
      vi.advanceTimersByTime(2_000);
      expect((await handler(get('?q=deploy'))).headers.get('X-Search-Cache')).toBe('MISS');
      expect(counted.count()).toBeGreaterThan(queries);
    } finally {
      vi.useRealTimers();
    }
  });

  it('one entry for /api/search and /api/search/', async () => {
    const cache = recordingCache();
    const handler = createSearchHandler(options, { db, cache });
    await handler(new Request(`${ORIGIN}/api/search/?q=deploy`));
    expect((await handler(get('?q=deploy'))).headers.get('X-Search-Cache')).toBe('HIT');
    expect(cache.keys).toEqual([`${ORIGIN}/api/search?q=deploy&limit=10&offset=0&type=`]);
  });

  it('does not cache errors, and cacheMaxAge: 0 or cache: false turn caching off', async () => {
    const cache = recordingCache();
    await createSearchHandler(options, { db, cache })(get('?q=x&limit=0'));
    expect(cache.keys).toEqual([]);
    for (const handler of [
      createSearchHandler({ ...options, cacheMaxAge: 0 }, { db, cache }),
      createSearchHandler(options, { db, cache: false }),
    ]) {
      await handler(get('?q=deploy'));
      expect((await handler(get('?q=deploy'))).headers.get('X-Search-Cache')).toBe('MISS');
    }
    expect(cache.keys).toEqual([]);
  });
});

describe('snippets through the endpoint', () => {
  it('come back HTML-escaped except for <mark>', async () => {
    const res = await createSearchHandler(options, { db, cache: false })(get('?q=onerror'));
    const [hit] = (await res.json()).results;
    expect(hit.snippet).toContain('&lt;img src=x <mark>onerror</mark>=alert(1)&gt;');
    expect(hit.snippet).not.toContain('<img');
  });
});

describe('query rule 5: user input only ever reaches SQL as bound parameters', () => {
  it('no SQL text contains the query, type, limit or offset; they are parameters', async () => {
    const seen: { sql: string; params: unknown[] }[] = [];
    const recording = observe(db, (sql, params) => seen.push({ sql, params }));
    const marker = "zq'); DROP TABLE search_index; --";
    const handler = createSearchHandler(options, { db: recording, cache: false });
    // The search reads the clock for today's day number: the clock is the test's, so the day expected below is the
    // search's (read twice from the real clock, the two could straddle UTC midnight).
    vi.useFakeTimers({ now: new Date('2026-11-21T23:59:59.999Z'), toFake: ['Date'] });
    const res = await handler(get(`?q=${encodeURIComponent(`deploy ${marker}`)}&type=doc&limit=7&offset=3`)).finally(() => vi.useRealTimers());
    expect(res.status).toBe(200);
    expect(seen.length).toBeGreaterThan(0);
    for (const { sql, params } of seen) {
      expect(sql).not.toContain('zq');
      expect(sql).not.toContain('deploy');
      expect(sql).not.toMatch(/'doc'/);
      expect(sql).not.toMatch(/\b(LIMIT|OFFSET)\s+(7|3|10)\b/);
    }
    // The ranking statement's parameters: today's day number (recency), the page asked (its places: 4 to 10 for
    // offset 3 and limit 7), and the expressions, the type among them as its scope word (hex, inside the bound
    // expression, never in the SQL).
    const ranking = seen.find((s) => s.sql.includes('page_rows'))!;
    expect(ranking.params).toEqual(expect.arrayContaining([Date.UTC(2026, 10, 21) / 86_400_000, 4, 10]));
    // The every-word expression: every informative word, each quoted (the last term "--" holds no word for FTS5 to
    // complete, so it gets no `*`: a prefix is only kept on a last word of 2 characters or more), in the type's scope.
    const every = `(("deploy" AND "zq" AND ");" AND "drop" AND "table" AND "search_index;" AND "--")) AND scope : "t646f630"`;
    expect(ranking.params).toContain(every);
    // The coverage ranking's expression is built from the same quoted terms (each once, punctuated ones as their
    // words and as the name typed, adjacent words also as one identifier), also bound.
    const coverage = `("search_index;" OR "deploy" OR "zq" OR ");" OR "drop" OR "table" OR "search" OR "index" OR "--" OR "deployzq" OR "droptable" OR "droptablesearch" OR "droptablesearchindex" OR "tablesearch" OR "tablesearchindex" OR "searchindex") AND scope : "t646f630"`;
    expect(ranking.params).toContain(coverage);
    // The table is still there.
    expect((await (await handler(get('?q=deploy'))).json()).results.length).toBeGreaterThan(0);
  });
});

describe('programmatic interface', () => {
  it('searchIndex returns exactly what the endpoint returns for the same query', async () => {
    const handler = createSearchHandler(options, { db, cache: false });
    const viaHttp = (await (await handler(get('?q=Collections&type=doc&limit=3&offset=1'))).json()).results;
    const direct = await searchIndex(options, { db, q: 'Collections', type: 'doc', limit: 3, offset: 1, origin: ORIGIN });
    expect(direct).toEqual(viaHttp);
    expect(direct.length).toBeGreaterThan(0);
  });

  it('searchIndex throws the 400 message for bad input', async () => {
    await expect(searchIndex(options, { db, q: 'x', limit: 0 })).rejects.toThrow(new SearchInputError('Invalid limit'));
  });
});

describe('snippetTokens', () => {
  it('sets the approximate snippet size', async () => {
    const long = openSqlite(':memory:');
    const words = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ');
    await seed(long, [{ title: 'Long', content: `${words} needle ${words}`, url: '/long' }]);
    const tokens = async (snippetTokens: number) => {
      const [hit] = await searchIndex({ ...options, snippetTokens }, { db: long, q: 'needle' });
      return hit!.snippet.replace(/<\/?mark>|…/g, ' ').trim().split(/\s+/).length;
    };
    expect(await tokens(24)).toBe(24);
    expect(await tokens(8)).toBe(8);
    expect(await tokens(64)).toBe(64);
    long.close();
  });
});

describe('site scoping', () => {
  it('searches see only their site; an empty site sees all', async () => {
    const shared: SearchDatabase = openSqlite(':memory:');
    await seed(shared, [
      { title: 'Alpha pricing', url: '/a', site: 'alpha' },
      { title: 'Beta pricing', url: '/b', site: 'beta' },
    ]);
    const titles = async (site: string) =>
      (await (await createSearchHandler({ ...options, site }, { db: shared, cache: false })(get('?q=pricing'))).json()).results.map(
        (r: { title: string }) => r.title,
      );
    expect(await titles('alpha')).toEqual(['Alpha pricing']);
    expect(await titles('beta')).toEqual(['Beta pricing']);
    expect((await titles('')).sort()).toEqual(['Alpha pricing', 'Beta pricing']);
  });
});

describe('runtime options', () => {
  it('resolves result URLs against runtime.origin when given', async () => {
    const handler = createSearchHandler(options, { db, cache: false, origin: 'https://docs.example.com/any/path' });
    const [hit] = (await (await handler(get('?q=deploy'))).json()).results;
    expect(hit.url).toBe('https://docs.example.com/docs/deploy/cloudflare/');
  });

  it('answers a JSON 500 when a lazily opened database fails to open', async () => {
    const handler = createSearchHandler(options, {
      cache: false,
      db: () => {
        throw new Error('unable to open database file');
      },
    });
    const res = await handler(get('?q=deploy'));
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: 'Search database could not be opened: unable to open database file' });
  });
});

describe('the dev-server handler (next dev, vite dev, astro dev)', () => {
  it('caches nothing, in the handler or the browser: no-store on every answer, never a HIT', async () => {
    const handler = createDevSearchHandler(options, { db });
    for (const query of ['?q=deploy', '?q=deploy', '?q=x', '?q=x&limit=0']) {
      const res = await handler(get(query));
      expect(res.headers.get('Cache-Control'), query).toBe('no-store');
      expect(res.headers.get('X-Search-Cache'), query).not.toBe('HIT');
    }
  });

  it('is chosen when NODE_ENV is development, as next dev and vite dev set it, and not otherwise', () => {
    try {
      vi.stubEnv('NODE_ENV', 'development');
      expect(isDevServer()).toBe(true);
      for (const env of ['production', 'test', '']) {
        vi.stubEnv('NODE_ENV', env);
        expect(isDevServer(), env).toBe(false);
      }
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe('a warning when result links are not on the page\'s origin', () => {
  /** A request as Chromium sends it from a page on `page` (a same-origin fetch carries the page in Referer). */
  const fromPage = (page: string, site = 'same-origin') =>
    get('?q=deploy', { headers: { 'Sec-Fetch-Site': site, Referer: `${page}/docs/intro/` } });

  it('warns once, naming both origins, when a same-origin request came from a page on another origin', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      // The framework reported https:// (adapter-node without ORIGIN) on a server the page reached over http://.
      const handler = createSearchHandler(options, { db });
      const res = await handler(fromPage('http://site.example'));
      expect((await res.json()).results[0].url.startsWith('https://site.example/')).toBe(true);
      await handler(fromPage('http://site.example'));
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn.mock.calls[0]![0]).toMatch(/^\[site-search\] Result links are built on https:\/\/site\.example, but this search came from a page on http:\/\/site\.example, .*ORIGIN=http:\/\/site\.example/);
    } finally {
      warn.mockRestore();
    }
  });

  it('stays silent for a page on the same origin, a cross-site page, no Referer, and an origin set on purpose', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      await createSearchHandler(options, { db })(fromPage(ORIGIN));
      await createSearchHandler(options, { db })(fromPage('https://other.example', 'cross-site'));
      await createSearchHandler(options, { db })(get('?q=deploy', { headers: { 'Sec-Fetch-Site': 'same-origin' } }));
      await createSearchHandler({ ...options, origin: 'https://docs.example.com' }, { db })(fromPage('http://localhost:4321'));
      await createSearchHandler(options, { db, origin: 'https://docs.example.com' })(fromPage('http://localhost:4321'));
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });
});

describe('the in-process cache is bounded', () => {
  it('keeps at most maxEntries responses, evicting the oldest', async () => {
    const cache = createMemoryCache({ maxEntries: 50, ttlSeconds: 60 });
    for (let i = 0; i < 500; i++) await cache.put(`k${i}`, new Response(`r${i}`));
    expect(await cache.match('k0')).toBeUndefined();
    expect(await cache.match('k399')).toBeUndefined();
    expect(await (await cache.match('k499'))!.text()).toBe('r499');
    let kept = 0;
    for (let i = 0; i < 500; i++) if (await cache.match(`k${i}`)) kept++;
    expect(kept).toBeLessThanOrEqual(50);
  });

  it('keeps at most maxBytes of responses, evicting the least recently used', async () => {
    const cache = createMemoryCache({ maxBytes: 100_000, ttlSeconds: 60 });
    const body = (i: number) => `${i}:${'x'.repeat(10_000)}`; // about 20 KB each as UTF-16
    for (let i = 0; i < 4; i++) await cache.put(`k${i}`, new Response(body(i)));
    await cache.match('k0'); // used: k1 is now the least recently used
    for (let i = 4; i < 50; i++) await cache.put(`k${i}`, new Response(body(i)));
    let kept = 0;
    for (let i = 0; i < 50; i++) if (await cache.match(`k${i}`)) kept++;
    expect(kept).toBe(4); // 4 × ~20 KB fit in 100 KB, a fifth does not
    expect(await (await cache.match('k49'))!.text()).toBe(body(49));
    // An answer larger than the whole budget is not kept, and does not push the others out.
    await cache.put('huge', new Response('y'.repeat(60_000)));
    expect(await cache.match('huge')).toBeUndefined();
    expect(await cache.match('k49')).toBeDefined();
  });

  // Issue 48, item 6: this read a 50 ms lifetime on the real clock, which a loaded machine can overrun before the
  // first read. The clock is the test's: the entry is served to the last millisecond of its lifetime, and not after.
  it('serves an entry for ttlSeconds, then forgets it', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-21T00:00:00Z'), toFake: ['Date'] });
    try {
      const cache = createMemoryCache({ ttlSeconds: 60 });
      await cache.put('k', new Response('r'));
      expect(await (await cache.match('k'))!.text()).toBe('r');
      vi.advanceTimersByTime(59_999);
      expect(await (await cache.match('k'))!.text()).toBe('r');
      vi.advanceTimersByTime(1);
      expect(await cache.match('k')).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });
});
