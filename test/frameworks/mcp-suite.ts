/**
 * The MCP server in a real framework app (issue 46), checked with the official TypeScript client against the app's own
 * server: the handshake and tools, `search` finding the fixture's page first with a URL that opens it, `get_page`
 * reading it back, bad arguments as tool errors, a foreign Origin refused.
 */
import { request } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { expect, it } from 'vitest';
import type { RunningApp } from './harness.js';

/** The page a suite searches for and reads back: the shared fixture's getting-started page unless an app has its own. */
export interface McpPage {
  query: string;
  type: string;
  title: string;
  /** The page's path, as the result's URL starts. */
  path: string;
  /** Words of its body that `get_page` returns. */
  text: string;
}

const FIXTURE_PAGE: McpPage = { query: 'getting started', type: 'doc', title: 'Getting started', path: '/docs/getting-started', text: 'Install the package' };

/** `route`: where the app serves MCP (`/mcp`, or `/mcp/` where the framework adds trailing slashes). */
export function mcpSuite(get: () => { app: RunningApp }, route = '/mcp', expected: McpPage = FIXTURE_PAGE): void {
  const url = () => `${get().app.origin}${route}`;
  const connect = async () => {
    const client = new Client({ name: 'site-search-framework-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url())));
    return client;
  };
  const text = (r: { content?: unknown }) => ((r.content as { text?: string }[] | undefined)?.[0]?.text ?? '');

  it('MCP: lists the tools; search finds the page first with a URL that opens it; get_page reads it back', async () => {
    const client = await connect();
    try {
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['get_page', 'list_pages', 'search']);
      const found = await client.callTool({ name: 'search', arguments: { query: expected.query, type: expected.type } });
      const first = (found.structuredContent as { results: { page: string; title: string }[] }).results[0]!;
      expect(first.title).toBe(expected.title);
      expect(first.page.startsWith(`${get().app.origin}${expected.path}`)).toBe(true);
      expect((await fetch(first.page, { redirect: 'manual' })).status).toBe(200);
      const page = text(await client.callTool({ name: 'get_page', arguments: { url: first.page } }));
      expect(page).toContain(`# ${expected.title}\n`);
      expect(page).toContain(expected.text);
      const bad = await client.callTool({ name: 'search', arguments: { query: 'install', offset: 999 } });
      expect(bad.isError).toBe(true);
      expect(text(bad)).toContain('Invalid offset (0 to 200)');
    } finally {
      await client.close();
    }
  });

  it('MCP: refuses a page of another origin', async () => {
    const res = await fetch(url(), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Origin: 'https://evil.example' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(res.status).toBe(403);
  });
}

/** The status of an MCP `initialize` POSTed to `url` with the Host header `host` (fetch sets Host itself: node:http). */
export function mcpStatusWithHost(url: string, host: string): Promise<number> {
  const message = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'host-test', version: '1' } } };
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { Host: host, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' } }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on('error', reject);
    req.end(JSON.stringify(message));
  });
}
