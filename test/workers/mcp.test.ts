/**
 * The MCP server in workerd (Miniflare) over a real D1 binding, filled by the indexer from the astro-docs sample, and
 * driven by the official TypeScript client: the Worker serves /mcp beside the endpoint, `search` ranks as the endpoint
 * does, `get_page` reads a page back from D1, and `<page>.md` serves the same bytes.
 */
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import type { SearchDatabase } from '../../src/index.js';
import { buildIndex, writeIndex } from '../../src/indexer/index.js';
import { bundleTestWorker } from '../helpers/worker-bundle.js';
import { connect, sampleOptions, textOf } from '../mcp/helpers.js';

let mf: Miniflare;
let client: Client;
let base: URL;

beforeAll(async () => {
  mf = new Miniflare({
    modules: true,
    script: await bundleTestWorker('mcp-entry.ts'),
    compatibilityDate: '2026-07-01',
    d1Databases: { SEARCH_DB: 'worker-mcp-db' },
  });
  base = await mf.ready;
  const db = (await mf.getD1Database('SEARCH_DB')) as unknown as SearchDatabase;
  const config = sampleOptions();
  const { documents } = await buildIndex(config);
  await writeIndex(db, config, documents);
  client = await connect(new URL('/mcp', base).href);
}, 120_000);

afterAll(async () => {
  await client?.close();
  await mf?.dispose();
});

describe('the MCP server in a Worker with D1', () => {
  it('lists the tools and finds the right page first, with the same results as the endpoint', async () => {
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['get_page', 'list_pages', 'search']);
    const result = await client.callTool({ name: 'search', arguments: { query: 'content collecti', type: 'en', limit: 5 } });
    const answer = result.structuredContent as { results: { page: string }[] };
    expect(new URL(answer.results[0]!.page).pathname).toBe('/en/guides/content-collections');
    const endpoint = (await (await fetch(new URL('/api/search?q=content%20collecti&type=en&limit=5', base))).json()) as { results: { url: string }[] };
    expect(answer.results.map((r) => r.page)).toEqual(endpoint.results.map((r) => r.url));
  });

  it('get_page reads a page back from D1 as Markdown, and refuses an unknown one', async () => {
    const text = textOf(await client.callTool({ name: 'get_page', arguments: { url: '/en/guides/actions' } }));
    expect(text).toMatch(/^# Actions\n\nURL: http:\/\/[^/]+\/en\/guides\/actions\n/);
    expect(text).toContain('\n## Basic usage\n');
    expect((await client.callTool({ name: 'get_page', arguments: { url: '/en/nothing-here' } })).isError).toBe(true);
  });

  it('serves llms.txt and llms-full.txt from D1 on the request\'s origin', async () => {
    const index = await fetch(new URL('/llms.txt', base));
    expect(index.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const text = await index.text();
    expect(text).toMatch(/^# Astro docs\n\n> .+\n\n## de\n\n- \[/);
    expect(text).toContain(`- [Actions](${new URL('/en/guides/actions', base).href}): Learn how to create type-safe server functions`);
    const full = await (await fetch(new URL('/llms-full.txt', base))).text();
    // A page as written may hold `---` lines of its own: the 48 pages are counted by the lines that start them.
    expect(full.match(/\n---\n\n# [^\n]+\n\nURL: http/g)).toHaveLength(48);
    expect(full).toContain(`# Actions\n\nURL: ${new URL('/en/guides/actions', base).href}\n`);
  });

  it('serves each page as Markdown at <page path>.md and to Accept: text/markdown, the bytes get_page gives, from D1', async () => {
    const text = textOf(await client.callTool({ name: 'get_page', arguments: { url: '/en/guides/actions' } }));
    for (const [path, headers] of [['/en/guides/actions.md', {}], ['/en/guides/actions/index.md', {}], ['/en/guides/actions', { Accept: 'text/markdown' }]] as const) {
      const response = await fetch(new URL(path, base), { headers });
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
      expect(await response.text()).toBe(text);
    }
    const missing = await fetch(new URL('/en/nothing-here.md', base));
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: "No page at /en/nothing-here in this site's index" });
  });

  it('keeps the endpoint and the 404 of other paths as they were', async () => {
    expect((await fetch(new URL('/api/search?q=actions', base))).status).toBe(200);
    expect((await fetch(new URL('/elsewhere', base))).status).toBe(404);
  });
});
