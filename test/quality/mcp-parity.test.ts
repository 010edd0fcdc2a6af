/**
 * One engine, two doors: over the 80 labeled astro-docs queries (the full corpus in CI, the in-repo sample elsewhere),
 * the MCP `search` tool, called through the official client, returns the endpoint's pages in the endpoint's order,
 * so its MRR@10 is the endpoint's.
 */
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { createSearchHandler, resolveConfig } from '../../src/index.js';
import { createMcpHandler } from '../../src/mcp/index.js';
import { corpusOptions, loadQueries, score, summarize } from '../../bench/labeled-queries.js';
import { CORPUS, HAS_FULL_CORPUS, QUERIES } from '../helpers/corpus.js';
import { connect, indexInMemory, serve } from '../mcp/helpers.js';
import type { SqliteDatabase } from '../../adapters/node.js';

const config = resolveConfig(corpusOptions(CORPUS));
const queries = loadQueries(QUERIES);
let db: SqliteDatabase;
let server: Server;
let client: Client;
let origin: string;

beforeAll(async () => {
  db = await indexInMemory(config);
  const served = await serve(createMcpHandler(config, { db }));
  server = served.server;
  origin = new URL(served.url).origin;
  client = await connect(served.url);
}, 300_000);

afterAll(async () => {
  await client?.close();
  server?.close();
  db?.close();
});

describe('MCP search parity with the endpoint', () => {
  it('gives every labeled query the endpoint\'s top 10, so the same MRR@10', async () => {
    const endpoint = createSearchHandler(config, { db, cache: false });
    const viaTool: ReturnType<typeof score>[] = [];
    const viaEndpoint: ReturnType<typeof score>[] = [];
    for (const q of queries) {
      // An answer's token budget may leave the last results for the next call, as nextOffset says: an assistant pages.
      const toolUrls: string[] = [];
      for (let offset: number | undefined = 0; offset !== undefined && toolUrls.length < 10; ) {
        const call = await client.callTool({ name: 'search', arguments: { query: q.query, type: q.lang, limit: 10 - toolUrls.length, offset } });
        const answer = call.structuredContent as { results: { page: string }[]; nextOffset?: number };
        toolUrls.push(...answer.results.map((r) => r.page));
        offset = answer.results.length > 0 ? answer.nextOffset : undefined;
      }
      const params = new URLSearchParams({ q: q.query, type: q.lang, limit: '10' });
      const answer = (await (await endpoint(new Request(`${origin}/api/search?${params}`))).json()) as { results: { url: string }[] };
      const endpointUrls = answer.results.map((r) => r.url);
      expect(toolUrls, q.query).toEqual(endpointUrls);
      viaTool.push(score(toolUrls, q.targets));
      viaEndpoint.push(score(endpointUrls, q.targets));
    }
    const [tool, page] = [summarize(viaTool), summarize(viaEndpoint)];
    console.log(`[mcp-parity] ${queries.length} queries: MRR@10 tool ${tool.mrr10.toFixed(3)}, endpoint ${page.mrr10.toFixed(3)}`);
    expect(tool.n).toBe(80);
    expect(tool.mrr10).toBe(page.mrr10);
    // The floor is the full corpus's; the 48-page sample holds the answers of only a few of the 80 queries, so there
    // the tool only has to answer some of them (parity above is the point either way).
    expect(tool.mrr10).toBeGreaterThan(HAS_FULL_CORPUS ? 0.5 : 0);
  }, 300_000);
});
