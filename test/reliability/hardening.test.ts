/**
 * Hardening round 2 (docs/security.md lists every case): each attack found against the indexer, the pushes, the
 * handler, the cache and the dev server, reproduced on real content (this repository's own docs/ pages) with real
 * parts: the CLI as a child process, node:sqlite, `wrangler d1 execute --local`, the Node listener over raw HTTP.
 */
import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlite, toNodeListener } from '../../adapters/node.js';
import { createSearchHandler, resolveConfig, type SqlValue } from '../../src/index.js';
import { toFtsQuery } from '../../src/search/query.js';
import { pushIndex } from '../../src/indexer/index.js';
import { observe } from '../helpers/observe.js';
import { startDevServer } from '../helpers/dev-server.js';
import { rawRequest } from '../helpers/raw-request.js';
import { makeProject } from '../helpers/project.js';
import { workerOverLocalD1 } from '../helpers/worker-bundle.js';

const CLI = new URL('../../dist/cli.js', import.meta.url).pathname;
const DOCS = new URL('../../docs/', import.meta.url).pathname;
const run = promisify(execFile);
const env = { ...process.env, CI: 'true', WRANGLER_SEND_METRICS: 'false' };
const DATABASE_ID = '00000000-0000-4000-8000-00000000027a';

/** A real page of this repository's docs, optionally behind new frontmatter. */
const page = (name: string, frontmatter = '') => `${frontmatter ? `---\n${frontmatter}\n---\n` : ''}${readFileSync(join(DOCS, name), 'utf8')}`;

async function cli(args: string[], cwd: string) {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { cwd, env });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const { code, stdout, stderr } = e as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

const huge = (word: string) => `${word} `.repeat(Math.ceil(100_000 / (word.length + 1))).trim();
/** Over 100,000 characters of distinct tags (the indexer keeps each tag once, so repeating one word would not do). */
const hugeTags = Array.from({ length: 14_000 }, (_, i) => `tagged${i}`).join(' ');

const project = makeProject({
  'wrangler.toml': `name = "hardening"\ncompatibility_date = "2026-07-01"\n\n[[d1_databases]]\nbinding = "SEARCH_DB"\ndatabase_name = "hardening-search"\ndatabase_id = "${DATABASE_ID}"\n`,
  'search.config.json': JSON.stringify({ database: 'hardening-search', site: 'docs', sources: [{ dir: 'content', type: 'doc', url: '/docs/:slug/' }] }),
  // Item 1: three ways for two files to claim one URL.
  'content/cli.md': page('cli.md'),
  'content/cli/index.md': page('api.md'),
  'content/ranking.md': page('ranking.md'),
  'content/ranking.mdx': page('indexing.md'),
  'content/guide-one.md': page('configuration.md', 'title: Configuration guide\nslug: guide'),
  'content/guide-two.md': page('http-api.md', 'title: HTTP guide\nslug: guide'),
  // Item 2: every text field far too long for one D1 statement.
  'content/oversized.md': `---\ntitle: "${huge('Oversized')}"\ndescription: "${huge('described')}"\ntags: "${hugeTags}"\n---\n\n## ${huge('Heading')}\n\n${readFileSync(join(DOCS, 'security.md'), 'utf8')}`,
  // Items 7 and 9: a slug that leads to another host, and terminal escapes in a slug and a date.
  'content/offsite.md': page('ui.md', 'title: Off-site slug\nslug: "\\\\evil.example"'),
  'content/escapes.md': page('frameworks/astro.md', 'title: Escapes\nslug: "esc\\e[31mred\\e]0;pwned\\a"\ndate: "\\e[2J2024-01-01"'),
});
const sqlitePath = join(project.dir, '.site-search/search.db');
const config = resolveConfig(JSON.parse(readFileSync(join(project.dir, 'search.config.json'), 'utf8')));
let indexed: { code: number; stdout: string; stderr: string };
let d1: { code: number; stdout: string; stderr: string };
let sqlFile: string;
let mf: Miniflare;

beforeAll(async () => {
  indexed = await cli(['index'], project.dir);
  const out = await cli(['index', '--out', 'push.sql'], project.dir);
  expect(out.code).toBe(0);
  sqlFile = readFileSync(join(project.dir, 'push.sql'), 'utf8');
  d1 = await cli(['index', '--d1', 'local', '--', '--persist-to', 'd1-state'], project.dir);
  mf = await workerOverLocalD1(project.dir, DATABASE_ID);
}, 180_000);
afterAll(async () => {
  await mf?.dispose();
  project.cleanup();
});

async function localSearch(q: string) {
  const db = openSqlite(sqlitePath);
  try {
    const res = await createSearchHandler(config, { db, cache: false })(new Request(`https://docs.example.com/api/search?q=${encodeURIComponent(q)}`));
    return ((await res.json()) as { results: { title: string; url: string; snippet: string; section?: { url: string } }[] }).results;
  } finally {
    db.close();
  }
}

describe('1. two files with one URL', () => {
  it('keeps the first file read, warns naming both, and the push succeeds on SQLite and D1 alike', async () => {
    expect(indexed.code, indexed.stderr).toBe(0);
    expect(d1.code, d1.stderr).toBe(0);
    for (const [later, earlier, url] of [
      ['content/ranking.mdx', 'content/ranking.md', '/docs/ranking/'],
      ['content/guide-two.md', 'content/guide-one.md', '/docs/guide/'],
    ] as const) {
      expect(indexed.stderr).toContain(`warning: ${later}: has the same URL ${url} as ${earlier}; skipped (give one of them another "slug"`);
    }
    expect(indexed.stderr).toMatch(/warning: content\/cli(\/index)?\.md: has the same URL \/docs\/cli\/ as content\/cli(\/index)?\.md; skipped/);
    const local = openSqlite(sqlitePath);
    const count = async (db: { prepare(sql: string): { all<T>(): Promise<{ results: T[] }> } }) =>
      (await db.prepare("SELECT url, count(*) AS n FROM search_index WHERE site = 'docs' GROUP BY url ORDER BY url").all<{ url: string; n: number }>()).results;
    const rows = await count(local);
    local.close();
    expect(rows.map((r) => r.url)).toEqual(expect.arrayContaining(['/docs/cli/', '/docs/guide/', '/docs/ranking/']));
    expect(rows.every((r) => Number(r.n) === 1)).toBe(true);
    // D1 holds the same pages as the local file: one rule on both targets.
    expect((await count(await mf.getD1Database('SEARCH_DB'))).map((r) => r.url)).toEqual(rows.map((r) => r.url));
    // The kept page is the first file read, and it answers.
    expect((await localSearch('configuration')).some((r) => r.url === 'https://docs.example.com/docs/guide/')).toBe(true);
  });

  it('a programmatic push of two documents with one URL keeps the first', async () => {
    const db = join(project.dir, 'programmatic.db');
    const doc = (title: string) => ({ title, description: '', content: `${title} text`, tags: '', url: '/same/', site: '', type: 'doc', date: '', emoji: '', sections: [{ heading: 'Part', anchor: 'part', content: 'part text' }] });
    await pushIndex(config, { kind: 'sqlite', path: db }, [doc('First'), doc('Second')]);
    const sqlite = openSqlite(db);
    expect((await sqlite.prepare('SELECT title FROM search_index').all<{ title: string }>()).results).toEqual([{ title: 'First' }]);
    sqlite.close();
  });
});

describe('2. one long field', () => {
  it('caps every field with a warning naming the file, and every D1 statement stays under 100,000 bytes', async () => {
    for (const field of ['title', 'description', 'tags']) {
      expect(indexed.stderr).toMatch(new RegExp(`warning: content/oversized\\.md: ${field} is [\\d,]+ characters; cut to [\\d,]+`));
    }
    expect(indexed.stderr).toContain('warning: content/oversized.md: 1 heading over 1000 characters cut to that length');
    for (const statement of sqlFile.split(';\n')) expect(Buffer.byteLength(statement)).toBeLessThan(100_000);
    // The page's body is kept (it used to become '' in --out), locally and in D1.
    const body = "SELECT length(content) AS n FROM search_index WHERE url = '/docs/oversized/'";
    const local = openSqlite(sqlitePath);
    expect(Number((await local.prepare(body).all<{ n: number }>()).results[0]!.n)).toBeGreaterThan(5_000);
    local.close();
    expect(Number((await (await mf.getD1Database('SEARCH_DB')).prepare(body).all<{ n: number }>()).results[0]!.n)).toBeGreaterThan(5_000);
  });
});

describe('3. a one-letter last term', () => {
  it('is matched as a whole word, not as a prefix, in every step the handler runs', async () => {
    const db = openSqlite(sqlitePath);
    const expressions: SqlValue[] = [];
    const watched = observe(db, (sql, params) => sql.includes('MATCH') && expressions.push(...params.filter((p) => typeof p === 'string' && p.includes('"'))));
    const handler = createSearchHandler(config, { db: watched, cache: false });
    // "a" is a filler word too: the coverage ranking does not search for it at all. "x" is not one: it is searched as
    // a whole word.
    for (const letter of ['a', 'x']) {
      const res = await handler(new Request(`https://docs.example.com/api/search?q=zzq%20${letter}`));
      expect(res.status).toBe(200);
      expect(expressions.filter((e) => String(e).includes(`"${letter}"*`))).toEqual([]);
    }
    expect(expressions.length).toBeGreaterThan(1); // every word, and any of them
    expect(expressions.some((e) => String(e).includes('"x"'))).toBe(true);
    expect(expressions.some((e) => / "a"|"a" /.test(String(e)))).toBe(false);
    // The work it saves, counted in the index itself: the prefix read the entries of every word starting with "a",
    // the whole word reads its own.
    await db.prepare("CREATE VIRTUAL TABLE IF NOT EXISTS temp.words USING fts5vocab(main, 'search_index', 'row')").run();
    const read = async (where: string) =>
      (await db.prepare(`SELECT count(*) AS terms, sum(cnt) AS entries FROM temp.words WHERE ${where}`).all<{ terms: number; entries: number }>()).results[0]!;
    const asWord = await read("term = 'a'");
    const asPrefix = await read("term >= 'a' AND term < 'b'");
    expect(asWord.terms).toBe(1);
    expect(asPrefix.terms).toBeGreaterThan(50);
    expect(asPrefix.entries).toBeGreaterThan(3 * asWord.entries);
    db.close();
    // toFtsQuery keeps the shape SPEC.md documents.
    expect(toFtsQuery('zzq a')).toBe('"zzq" "a"*');
  });
});

describe('6. the site name', () => {
  it.each([
    ['a control character', 'docs\u0001'],
    ['a snippet sentinel (private use)', 'docs\uE000'],
    ['a lone surrogate', 'docs\uD800'],
  ])('rejects %s with one clear line', (_, site) => {
    expect(() => resolveConfig({ ...config, site })).toThrow(/site: must be printable text \(no control characters, private-use characters or lone surrogates\)/);
  });

  it('accepts ordinary names, Unicode included', () => {
    for (const site of ['docs', 'docs-fr', 'доки', '文档', 'blog 2026']) expect(resolveConfig({ ...config, site }).site).toBe(site);
  });
});

describe('7 and 9. slugs and terminal escapes from content', () => {
  it('keeps a result on the site whatever the slug says, and reports the slug', async () => {
    expect(indexed.stderr).toContain('warning: content/offsite.md: frontmatter slug "\\evil.example" is not a plain path; using "evil.example"');
    const results = await localSearch('off-site slug');
    const offsite = results.find((r) => r.title === 'Off-site slug')!;
    expect(offsite.url).toBe('https://docs.example.com/docs/evil.example/');
    for (const r of results) expect(new URL(r.url).origin).toBe('https://docs.example.com');
  });

  it('never prints a control character from content, and never returns one in a URL', async () => {
    expect(indexed.stderr + indexed.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(indexed.stderr).toContain('\\x1b[2J2024-01-01');
    const query = await cli(['query', 'escapes'], project.dir);
    expect(query.code).toBe(0);
    expect(query.stdout).toContain('Escapes');
    expect(query.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    const json = await cli(['query', 'escapes', '--json'], project.dir);
    const { results } = JSON.parse(json.stdout) as { results: { title: string; url: string }[] };
    expect(results.find((r) => r.title === 'Escapes')!.url).toBe('/docs/esc[31mred]0;pwned/');
  });
});

describe('4. a bounded answer', () => {
  it('stands a long description in for an empty snippet, cut like a snippet', async () => {
    const target = join(project.dir, 'description.db');
    const description = readFileSync(join(DOCS, 'ranking.md'), 'utf8').replace(/\s+/g, ' ').slice(0, 9_000);
    await pushIndex(config, { kind: 'sqlite', path: target }, [
      { title: 'Titlematch only', description, content: '', tags: '', url: '/t/', site: 'docs', type: 'doc', date: '', emoji: '', sections: [] },
    ]);
    const sqlite = openSqlite(target);
    const res = await createSearchHandler(config, { db: sqlite, cache: false })(new Request('https://x.test/api/search?q=titlematch'));
    const [result] = ((await res.json()) as { results: { snippet: string }[] }).results;
    sqlite.close();
    // Measured as text: the snippet is HTML-escaped, and a quote in the page (docs/ranking.md) is 6 characters there.
    const text = result!.snippet.replace(/&(amp|lt|gt|quot|#39);/g, '_');
    expect(text.length).toBeGreaterThan(100);
    expect(text.length).toBeLessThanOrEqual(24 * 12 + 1);
    expect(text.endsWith('…')).toBe(true);
  });
});

describe('5. the dev server', () => {
  it('answers only localhost and IP addresses, and sends no CORS header unless asked', async () => {
    const start = async (...flags: string[]) => {
      const { child, url } = await startDevServer(['--port', '0', ...flags], project.dir);
      return { child, url, port: new URL(url).port };
    };
    const dev = await start();
    try {
      const raw = (host: string) => rawRequest(Number(dev.port), `GET /api/search?q=cache HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      for (const host of ['evil.example', `evil.example:${dev.port}`, 'localhost.evil.example']) {
        const answer = await raw(host);
        expect(answer, host).toMatch(/^HTTP\/1\.1 403/);
        expect(answer).toContain('answers only localhost and IP addresses');
      }
      for (const host of [`localhost:${dev.port}`, `127.0.0.1:${dev.port}`, `[::1]:${dev.port}`]) expect(await raw(host), host).toMatch(/^HTTP\/1\.1 200/);
      const res = await fetch(`${dev.url}/api/search?q=cache`, { headers: { Origin: 'https://evil.example' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      dev.child.kill('SIGTERM');
    }
    const withCors = await start('--cors', '--sqlite', join(project.dir, 'cors.db'));
    try {
      expect((await fetch(`${withCors.url}/api/search?q=cache`)).headers.get('access-control-allow-origin')).toBe('*');
    } finally {
      withCors.child.kill('SIGTERM');
    }
  }, 240_000); // two starts, each under startDevServer's cap
});

describe('8. the Node listener and malformed requests', () => {
  let server: Server;
  let port: number;
  const logged: unknown[] = [];
  const originalError = console.error;
  beforeAll(async () => {
    console.error = (...args: unknown[]) => void logged.push(args);
    const db = openSqlite(sqlitePath);
    server = createServer(toNodeListener(createSearchHandler(config, { db, cache: false })));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => {
    console.error = originalError;
    server.close();
  });

  it.each([
    ['a Host with spaces and markup', 'GET /api/search?q=cache HTTP/1.1\r\nHost: a b<>\r\n', 400],
    ['a Host with a user name in it', 'GET /api/search?q=cache HTTP/1.1\r\nHost: 127.0.0.1@evil.example\r\n', 400],
    ['TRACE', 'TRACE /api/search?q=cache HTTP/1.1\r\nHost: 127.0.0.1\r\n', 405],
  ])('answers %s with a JSON 4xx, no stack trace', async (_, head, status) => {
    const answer = await rawRequest(port, `${head}Connection: close\r\n\r\n`);
    expect(answer).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    expect(answer).toMatch(/content-type: application\/json/i);
    expect(answer.split('\r\n\r\n')[1]).toMatch(/\{"error":"[^"]+"\}/);
    expect(answer).not.toMatch(/\bat \S+ \(|node:internal/);
    expect(logged).toEqual([]);
  });

  it('still answers a good request, with result URLs on the Host it was given', async () => {
    const answer = await rawRequest(port, `GET /api/search?q=cache HTTP/1.1\r\nHost: docs.example.com\r\nConnection: close\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toContain('"url":"http://docs.example.com/docs/');
  });
});

describe('10. two pushes at once', () => {
  it('each waits for the one before, and all succeed (a new file and an existing one)', async () => {
    const target = join(project.dir, 'concurrent.db');
    for (let round = 0; round < 2; round++) {
      const pushes = await Promise.all([1, 2, 3].map(() => cli(['index', '--sqlite', target], project.dir)));
      for (const p of pushes) expect(p.code, p.stderr).toBe(0);
    }
    const db = openSqlite(target);
    expect(Number((await db.prepare('SELECT count(*) AS n FROM search_index').all<{ n: number }>()).results[0]!.n)).toBeGreaterThan(5);
    db.close();
  }, 60_000);

  it('a push that cannot get the file in time says another push is running, and never advises deleting it', async () => {
    const target = join(project.dir, 'locked.db');
    expect((await cli(['index', '--sqlite', target], project.dir)).code).toBe(0);
    // Another process holds the write lock for longer than this push will wait.
    const holder = spawn(process.execPath, [
      '-e',
      `const db = new (require('node:sqlite').DatabaseSync)(${JSON.stringify(target)}); db.exec('BEGIN IMMEDIATE'); console.log('locked'); setTimeout(() => db.exec('COMMIT'), 5000);`,
    ]);
    try {
      await new Promise((ready) => holder.stdout.once('data', ready));
      const documents = [{ title: 'T', description: '', content: 'text', tags: '', url: '/t/', site: 'docs', type: 'doc', date: '', emoji: '', sections: [] }];
      const failure = await pushIndex(config, { kind: 'sqlite', path: target, lockTimeoutMs: 300 }, documents).catch((e: Error) => e);
      expect(failure).toBeInstanceOf(Error);
      expect((failure as Error).message).toMatch(/^\[site-search\] Another push is writing to .*locked\.db and did not finish in time\. Wait for it to end, then run this push again\. The index is unchanged\.$/);
      expect((failure as Error).message).not.toMatch(/delete/i);
    } finally {
      holder.kill();
    }
    // The index that was there still answers.
    const db = openSqlite(target);
    expect(Number((await db.prepare('SELECT count(*) AS n FROM search_index').all<{ n: number }>()).results[0]!.n)).toBeGreaterThan(5);
    db.close();
  }, 30_000);
});
