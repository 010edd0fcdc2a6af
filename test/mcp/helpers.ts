/**
 * The MCP suites' shared parts: the in-repo astro-docs sample indexed into a real SQLite database, the MCP handler
 * served by node:http through `toNodeListener` (as `site-search/node` users serve it), and the official TypeScript
 * client connected to it.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll } from 'vitest';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { openSqlite, toNodeListener, type SqliteDatabase } from '../../adapters/node.js';
import { buildIndex, writeIndex } from '../../src/indexer/index.js';
import { resolveConfig } from '../../src/options/config.js';
import type { ResolvedConfig, SearchOptions } from '../../src/options/options.js';
import { corpusOptions } from '../../bench/labeled-queries.js';
import { SAMPLE_CORPUS } from '../helpers/corpus.js';
import { createMcpHandler, type McpHandler } from '../../src/mcp/index.js';

/** The sample corpus's options (a source per language), with the MCP server named. */
export function sampleOptions(extra: Partial<SearchOptions> = {}): ResolvedConfig {
  return resolveConfig({ ...corpusOptions(SAMPLE_CORPUS), mcp: { name: 'Astro docs' }, ...extra });
}

/** The sources of `config` (the sample, or the full corpus) indexed into an in-memory database. */
export async function indexInMemory(config: ResolvedConfig): Promise<SqliteDatabase> {
  const db = openSqlite(':memory:');
  const { documents } = await buildIndex(config);
  await db.transaction(() => writeIndex(db, config, documents));
  return db;
}

/** A node:http server for `handler` on 127.0.0.1 (a loopback server, as `site-search dev` is). */
export async function serve(handler: McpHandler, host = '127.0.0.1'): Promise<{ url: string; server: Server }> {
  const server = createServer(toNodeListener(handler));
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/mcp`, server };
}

/** The official client, connected. */
export async function connect(url: string): Promise<Client> {
  const client = new Client({ name: 'site-search-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** The text of a tool call's first content block. */
export function textOf(result: { content?: unknown }): string {
  const first = (result.content as { type: string; text?: string }[] | undefined)?.[0];
  return first?.type === 'text' ? first.text! : '';
}

/** What {@link servedIndex} gives a suite once its `beforeAll` ran. */
export interface ServedIndex {
  db: SqliteDatabase;
  server: Server;
  url: string;
  client: Client;
}

/**
 * The sources of `config` indexed in memory, served by the MCP handler over node:http and a client connected to it,
 * for the suite that calls it (made in its `beforeAll`, closed in its `afterAll`).
 */
export function servedIndex(config: ResolvedConfig, timeout = 60_000): ServedIndex {
  const served = {} as ServedIndex;
  beforeAll(async () => {
    served.db = await indexInMemory(config);
    Object.assign(served, await serve(createMcpHandler(config, { db: served.db })));
    served.client = await connect(served.url);
  }, timeout);
  afterAll(async () => {
    await served.client?.close();
    served.server?.close();
    served.db?.close();
  });
  return served;
}
