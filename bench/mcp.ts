/**
 * `npm run bench:mcp`: what an MCP `search` call costs beside the endpoint's answer to the same query, in process CPU
 * time (`process.cpuUsage()`), in one run: the 80 labeled astro-docs queries (the full corpus when ../shared holds
 * it, else the in-repo sample) sent as Requests to each handler in process (no network, no cache), rounds
 * interleaved. The MCP call is a 2025-era `tools/call` POST (one request per call, as a stateless client sends it):
 * the SDK's parsing and validation, a server built for the request, the tool, and the JSON answer.
 */
import { resolveConfig } from '../src/options/config.js';
import { createSearchHandler } from '../src/http/handler.js';
import { createMcpHandler } from '../src/mcp/index.js';
import { openSqlite } from '../src/db/sqlite.js';
import { buildIndex, writeIndex } from '../src/indexer/index.js';
import { corpusOptions, loadQueries } from './labeled-queries.js';
import { CORPUS, QUERIES } from '../test/helpers/corpus.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const config = resolveConfig(corpusOptions(CORPUS));
const db = openSqlite(':memory:');
const { documents } = await buildIndex(config);
await db.transaction(() => writeIndex(db, config, documents));
const queries = loadQueries(QUERIES);
const endpoint = createSearchHandler(config, { db, cache: false });
const mcp = createMcpHandler(config, { db });
const origin = 'http://bench.test';

const call = (q: { query: string; lang: string }, id: number) =>
  new Request(`${origin}/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'search', arguments: { query: q.query, type: q.lang, limit: 10 } } }),
  });
const get = (q: { query: string; lang: string }) => new Request(`${origin}/api/search?${new URLSearchParams({ q: q.query, type: q.lang, limit: '10' })}`);

/** CPU milliseconds of one awaited call, the answer read to its end. */
async function cpu(run: () => Promise<Response>): Promise<number> {
  const start = process.cpuUsage();
  const response = await run();
  await response.text();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

// Warm both (the typo index, the SDK's schemas) before timing.
for (const q of queries) (await (await endpoint(get(q))).text(), await (await mcp(call(q, 0))).text());
const times = { endpoint: [] as number[], mcp: [] as number[] };
for (let round = 0; round < ROUNDS; round++) {
  for (const [i, q] of queries.entries()) {
    times.endpoint.push(await cpu(() => endpoint(get(q))));
    times.mcp.push(await cpu(() => mcp(call(q, i + 1))));
  }
}
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
console.log(`${queries.length} queries × ${ROUNDS} rounds over ${documents.length} pages (process CPU ms per call)\n`);
console.log('| | p50 | p95 | p99 |\n|---|---|---|---|');
for (const [name, xs] of Object.entries(times)) console.log(`| ${name === 'mcp' ? 'MCP tools/call search' : 'endpoint GET /api/search'} | ${pct(xs, 50).toFixed(2)} | ${pct(xs, 95).toFixed(2)} | ${pct(xs, 99).toFixed(2)} |`);
db.close();
