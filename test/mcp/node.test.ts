/**
 * The MCP server over node:http, driven by the official TypeScript client (`Client` + `StreamableHTTPClientTransport`)
 * against the astro-docs sample in real SQLite: the handshake, the tools' list, a search finding the right page first,
 * a page read back as Markdown, the list paged, bad arguments as tool errors, and the refusals in front of the protocol.
 */
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { createMcpHandler } from '../../src/mcp/index.js';
import type { SqliteDatabase } from '../../adapters/node.js';
import { listPages } from '../../src/db/pages.js';
import { countQueries } from '../helpers/observe.js';
import { connect, indexInMemory, sampleOptions, serve, textOf } from './helpers.js';

const config = sampleOptions();
/** Pages in test/fixtures/astro-docs-sample. */
const CORPUS_PAGES_SAMPLE = 48;
let db: SqliteDatabase;
let server: Server;
let url: string;
let client: Client;

beforeAll(async () => {
  db = await indexInMemory(config);
  ({ server, url } = await serve(createMcpHandler(config, { db })));
  client = await connect(url);
}, 60_000);

afterAll(async () => {
  await client?.close();
  server?.close();
  db?.close();
});

describe('the MCP server over node:http', () => {
  it('initializes and lists the three read-only tools, describing the site by name', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['get_page', 'list_pages', 'search']);
    const search = tools.find((t) => t.name === 'search')!;
    expect(search.description).toContain('the Astro docs site');
    expect(search.inputSchema).toMatchObject({ required: ['query'], properties: { limit: { maximum: 25 }, type: { enum: config.types } } });
    expect(search.outputSchema).toMatchObject({ required: ['query', 'results'] });
    expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
  });

  it('search finds the right page first for known questions, with absolute URLs and snippets in plain text', async () => {
    for (const [query, page] of [
      // A last word typed partway; `content coll` puts Alpine's page first since a filter or limit no longer changes whether the last
      // word is completed (issue 44): its "Usage" section holds `Content` beside `x-collapse`, a ranking cause left to issue 47.
      ['content collecti', '/en/guides/content-collections'],
      ['how do I use actions', '/en/guides/actions'],
      ['syntax highlighting', '/en/guides/syntax-highlighting'],
    ] as const) {
      const result = await client.callTool({ name: 'search', arguments: { query, type: 'en', limit: 5 } });
      expect(result.isError).toBeFalsy();
      const answer = result.structuredContent as { results: { page: string; url: string; snippet: string }[] };
      expect(answer.results[0]!.page, query).toBe(`${new URL(url).origin}${page}`);
      expect(answer.results[0]!.url.startsWith(answer.results[0]!.page)).toBe(true);
      expect(answer.results.some((r) => /\*\*[^*]+\*\*/.test(r.snippet))).toBe(true);
      expect(answer.results.every((r) => !/<\/?mark>|&lt;|&amp;/.test(r.snippet))).toBe(true);
      // The same answer as text, for clients that read only text.
      expect(textOf(result)).toContain(`(${answer.results[0]!.url})`);
    }
  });

  it('search says when it shows results for corrected words', async () => {
    const result = await client.callTool({ name: 'search', arguments: { query: 'contnet collections', type: 'en' } });
    expect(result.structuredContent).toMatchObject({ showingResultsFor: 'content collections' });
    expect(textOf(result)).toContain('showing results for "content collections"');
  });

  it('get_page returns a page of the index as Markdown as written: title, URL, description, then the page', async () => {
    const origin = new URL(url).origin;
    const result = await client.callTool({ name: 'get_page', arguments: { url: `${origin}/en/guides/actions` } });
    expect(result.isError).toBeFalsy();
    const text = textOf(result);
    expect(text).toMatch(/^# Actions\n\nURL: http:\/\/127\.0\.0\.1:\d+\/en\/guides\/actions\n/);
    expect(text).toMatch(/\n> .+\n/);
    expect(text).toContain('\n## Basic usage\n');
    // The code block as the author wrote it, with its language and title, on lines of its own.
    expect(text).toContain("\n```ts title=\"src/actions/index.ts\"\nimport { defineAction } from 'astro:actions';\nimport { z } from 'astro/zod';\n");
    // A path of the site works as well as the URL.
    expect(textOf(await client.callTool({ name: 'get_page', arguments: { url: '/en/guides/actions/' } }))).toBe(text);
  });

  it('get_page with a #section returns that section alone, after the page\'s outline; an unknown one the whole page, saying so', async () => {
    const origin = new URL(url).origin;
    const whole = textOf(await client.callTool({ name: 'get_page', arguments: { url: `${origin}/en/guides/actions` } }));
    const text = textOf(await client.callTool({ name: 'get_page', arguments: { url: `${origin}/en/guides/actions#checking-for-errors` } }));
    expect(text).toContain(`Section: [Checking for errors](${origin}/en/guides/actions#checking-for-errors)`);
    expect(text).toContain(`\n- [Basic usage](${origin}/en/guides/actions#basic-usage)\n  - [Write your first action](${origin}/en/guides/actions#write-your-first-action)\n`);
    expect(text).toContain(`  - [Checking for errors](${origin}/en/guides/actions#checking-for-errors) (this section)\n`);
    const body = text.slice(text.indexOf('\n---\n\n') + 6);
    // The section from its heading to the next heading of its level, as the whole page holds it.
    expect(body.startsWith('### Checking for errors\n')).toBe(true);
    expect(whole).toContain(body.trimEnd());
    expect(body).not.toContain('### Accessing data directly without an error check');
    expect(body.length).toBeLessThan(whole.length / 4);
    // The path with the anchor, percent-encoded or not, is the same section.
    expect(textOf(await client.callTool({ name: 'get_page', arguments: { url: '/en/guides/actions#checking-for-errors' } }))).toBe(text);
    const unknown = textOf(await client.callTool({ name: 'get_page', arguments: { url: `${origin}/en/guides/actions#no-such-part` } }));
    expect(unknown).toContain('(No section #no-such-part on this page: the whole page follows.)');
    expect(unknown).toContain('\n## Basic usage\n');
  });

  it('get_page refuses a URL that is no page of the index, and another site\'s URL, as tool errors', async () => {
    const missing = await client.callTool({ name: 'get_page', arguments: { url: '/en/no-such-page' } });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain('No page at /en/no-such-page');
    const foreign = await client.callTool({ name: 'get_page', arguments: { url: 'https://evil.example/en/guides/actions' } });
    expect(foreign.isError).toBe(true);
    expect(textOf(foreign)).toContain('Not a page of this site');
  });

  it('list_pages lists titles, URLs and descriptions, paged by cursor, of one type when asked', async () => {
    const first = await client.callTool({ name: 'list_pages', arguments: { type: 'en' } });
    const { pages, nextCursor } = first.structuredContent as { pages: { url: string; title: string; type: string }[]; nextCursor?: string };
    expect(pages.length).toBeGreaterThan(10);
    expect(nextCursor).toBeUndefined();
    expect(pages.every((p) => p.type === 'en' && p.url.startsWith(new URL(url).origin))).toBe(true);
    // The sample's 48 pages fit one call of 50; after the 40th, the last 8.
    const all = (await client.callTool({ name: 'list_pages', arguments: {} })).structuredContent as { pages: { url: string }[]; nextCursor?: string };
    expect(all.pages).toHaveLength(CORPUS_PAGES_SAMPLE);
    expect(all.nextCursor).toBeUndefined();
    const fortieth = new URL(all.pages[39]!.url).pathname;
    const rest = (await client.callTool({ name: 'list_pages', arguments: { cursor: fortieth } })).structuredContent as { pages: { url: string }[] };
    expect(rest.pages).toEqual(all.pages.slice(40));
    // Paged 10 at a time, the listing is the whole one, in order, each part saying where the next starts.
    const paged: string[] = [];
    for (let after = '', calls = 0; calls < 10; calls++) {
      const part = await listPages(db, config.site, { type: '', after, limit: 10 });
      paged.push(...part.pages.map((p) => p.url));
      if (part.next === undefined) break;
      after = part.next;
    }
    expect(paged).toEqual(all.pages.map((p) => new URL(p.url).pathname));
    expect(await listPages(db, config.site, { type: '', after: fortieth, limit: 10 })).not.toHaveProperty('next');
  });

  // Issue 54, item 2: a repeated MCP search ran again (0.11–0.37 s a time against the endpoint's 5 ms from its cache).
  it('keeps the tools\' replies as the endpoint keeps its answers: a repeat runs no statement; a dev server keeps none', async () => {
    for (const devServer of [false, true]) {
      const { db: counted, count } = countQueries(db);
      const { server: own, url: ownUrl } = await serve(createMcpHandler(config, { db: counted, devServer }));
      const ownClient = await connect(ownUrl);
      try {
        const calls = [
          { name: 'search', arguments: { query: 'content collections', type: 'en' } },
          { name: 'get_page', arguments: { url: '/en/guides/actions/' } },
          { name: 'list_pages', arguments: { type: 'fr' } },
        ];
        const first = [];
        for (const call of calls) first.push(await ownClient.callTool(call));
        const read = count();
        expect(read).toBeGreaterThanOrEqual(calls.length);
        for (const [i, call] of calls.entries()) expect(await ownClient.callTool(call), call.name).toEqual(first[i]);
        expect(count(), devServer ? 'under a dev server every call reads' : 'repeats read nothing').toBe(devServer ? 2 * read : read);
      } finally {
        await ownClient.close();
        own.close();
      }
    }
  });

  it('answers bad arguments with tool errors in the endpoint\'s words, without the SDK\'s prefix', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ query: 'x'.repeat(501) }, 'Query too long (max 500 characters)'],
      [{ query: 'actions', offset: 201 }, 'Invalid offset (0 to 200)'],
      [{ query: 'actions', type: 'klingon' }, 'Invalid type. One of: de, en, fr, ja, ko, zh-cn'],
      [{ query: 'actions', limit: 0 }, 'Invalid limit'],
      [{ query: 'actions', limt: 3 }, 'Unknown argument "limt"'],
      [{}, 'Missing query'],
      [{ query: 'a' }, 'Query too short'],
    ];
    const others: [string, Record<string, unknown>, string][] = [
      ['get_page', {}, 'Missing url: give a page URL from a search result'],
      ['get_page', { url: 'x'.repeat(2049) }, 'URL too long (max 2048 characters)'],
      ['list_pages', { type: 'klingon' }, 'Invalid type. One of: de, en, fr, ja, ko, zh-cn'],
      ['list_pages', { page: 2 }, 'Unknown argument "page". Arguments: type, cursor'],
    ];
    for (const [name, args, words] of [...cases.map(([args, words]) => ['search', args, words] as const), ...others]) {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, JSON.stringify(args)).toBe(true);
      // The endpoint's words and nothing before them (the SDK's "Input validation error: Invalid arguments for tool search: ").
      expect(textOf(result).startsWith(words), textOf(result)).toBe(true);
      expect(textOf(result)).not.toMatch(/\n\s+at /);
    }
  });

  it('answers a question of up to mcp.maxQueryLength characters (500), where the endpoint refuses over 100', async () => {
    const question = 'How do I write a server endpoint in Astro that handles a form submission and returns JSON to the client? ';
    const query = question.repeat(Math.ceil(500 / question.length)).slice(0, 500);
    const result = await client.callTool({ name: 'search', arguments: { query } });
    expect(result.isError ?? false, textOf(result).slice(0, 200)).toBe(false);
    expect(textOf(result)).toMatch(/https?:\/\//);
  });
});

describe('what the MCP handler refuses before the protocol', () => {
  const initialize = (headers: Record<string, string> = {}, body: unknown = initializeMessage()) =>
    fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) });

  it('answers a 2025-era initialize with JSON, not an event stream', async () => {
    const response = await initialize();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', id: 1, result: { serverInfo: { name: 'Astro docs' } } });
  });

  it('refuses a page of another origin, and accepts the site\'s own', async () => {
    const foreign = await initialize({ Origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ jsonrpc: '2.0', error: { message: expect.stringContaining('requests from https://evil.example are refused') } });
    expect((await initialize({ Origin: new URL(url).origin })).status).toBe(200);
  });

  it('refuses a foreign Host on a loopback server (DNS rebinding), and accepts localhost', async () => {
    const port = new URL(url).port;
    const { request } = await import('node:http');
    const status = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request(url, { method: 'POST', headers: { Host: host, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' } }, (res) => {
          res.resume();
          resolve(res.statusCode!);
        });
        req.on('error', reject);
        req.end(JSON.stringify(initializeMessage()));
      });
    expect(await status(`evil.example:${port}`)).toBe(403);
    expect(await status(`localhost:${port}`)).toBe(200);
  });

  // Issue 54, item 9: a framework's dev server (next dev, vite dev, astro dev) listens on this machine, but its requests
  // never pass through toNodeListener, which marks loopback ones: the handler refuses a foreign Host there itself.
  it('under a framework\'s dev server, refuses a foreign Host and answers localhost and IP addresses', async () => {
    const post = (handler: ReturnType<typeof createMcpHandler>, origin: string) =>
      handler(new Request(`${origin}/mcp`, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, body: JSON.stringify(initializeMessage()) }));
    const dev = createMcpHandler(config, { db, devServer: true });
    const refused = await post(dev, 'http://evil.example:3000');
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: { message: expect.stringContaining('Host evil.example:3000 is not this machine; a dev server answers localhost and IP addresses') } });
    for (const origin of ['http://localhost:3000', 'http://app.localhost:3000', 'http://127.0.0.1:3000', 'http://192.168.1.5:3000', 'http://[::1]:3000']) {
      expect((await post(dev, origin)).status, origin).toBe(200);
    }
    // The origin option's host is the site's own, behind a tunnel or a proxy to the dev server.
    expect((await post(createMcpHandler({ ...config, origin: 'https://docs.example.com' }, { db, devServer: true }), 'https://docs.example.com')).status).toBe(200);
    // A deployed server (no dev server, not on a loopback socket) answers the host it is deployed on.
    expect((await post(createMcpHandler(config, { db, devServer: false }), 'https://docs.example.com')).status).toBe(200);
  });

  it('bounds the body and the batch, and answers other methods 405, all as JSON-RPC errors', async () => {
    const large = await initialize({}, { ...initializeMessage(), padding: 'x'.repeat(70_000) });
    expect(large.status).toBe(413);
    const batch = await initialize({}, Array.from({ length: 11 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'ping' })));
    expect(batch.status).toBe(400);
    expect(await batch.json()).toMatchObject({ error: { message: 'Batch too large (at most 10 messages)' } });
    const get = await fetch(url, { headers: { Accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const notJson = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{' });
    expect(await notJson.json()).toMatchObject({ error: { code: -32700 } });
  });
});

function initializeMessage() {
  return { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } } };
}
