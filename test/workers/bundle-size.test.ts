/**
 * The Worker's weight as a user's Worker ships it (`createWorker` from `site-search/workers`, bundled from source,
 * minified, gzipped at level 9: the bench's "Worker bundle" row, which `wrangler deploy --minify` matches), and what is
 * in it: nothing only the indexer, the CLI or analytics need.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bundleSize } from '../../bench/perf/bundle-size.js';

/**
 * The Worker's budget: 32 KB gzipped, the project's. It keeps the Worker from growing unnoticed, not from growing:
 * code is not folded nor messages shortened to fit it (a change that adds to the Worker says how much in its commit;
 * docs/benchmarks.md, "Worker bundle", has the figure, and git the history of each raise).
 */
const MAX_GZIP_BYTES = 32 * 1024;

const entry = fileURLToPath(new URL('../../adapters/workers.ts', import.meta.url));

describe('the Worker bundle', () => {
  it(`is at most ${MAX_GZIP_BYTES} bytes minified and gzipped, with no analytics, literal-ranking, schema-creation or router code`, async () => {
    const { min, gzip, metafile, code } = await bundleSize(entry);
    const modules = Object.keys(Object.values(metafile.outputs)[0]!.inputs);
    console.log(`[worker-size] createWorker: ${min} bytes minified, ${gzip} bytes gzipped (budget ${MAX_GZIP_BYTES})`);
    // Analytics come from site-search/analytics, imported only by a Worker that records them.
    expect(modules.filter((m) => m.includes('src/analytics/'))).toEqual([]);
    // SPEC.md's literal ranking comes from site-search/literal-ranking, given only to a Worker configured with it.
    expect(modules.filter((m) => m.includes('src/ranking/literal'))).toEqual([]);
    expect(modules.some((m) => m.includes('src/ranking/coverage'))).toBe(true);
    expect(modules.filter((m) => m.includes('node_modules/')).map((m) => m.split('node_modules/')[1]!.split('/')[0])).toEqual(['valibot']);
    // The indexer creates the tables; a search never does.
    expect(code).not.toMatch(/CREATE (VIRTUAL )?TABLE/);
    expect(gzip).toBeLessThanOrEqual(MAX_GZIP_BYTES);
  });
});

/**
 * A Worker that passes `createMcpHandler` and `createLlmsHandler` (test/workers/mcp-entry.ts) carries the MCP SDK and
 * the zod it validates the protocol with: 109,742 bytes gzipped when measured (docs/decisions.md, "The MCP server for AI
 * assistants"), 90.1 KB more than the Worker without them (19,599). Sized with wrangler's export conditions, as the SDK ships a Workers build of its own.
 * Issue 44 raised it to 113 KB: the search of a query without a type judged per type, as in every Worker (114,945
 * with it). Issue 54 raised it to 116 KB (115,260 → 118,008): the tools' replies kept in the Cache API, frontmatter
 * escaped in what assistants read, llms.txt and llms-full.txt written once per cache lifetime by keyset, bounded and
 * streamed from one buffer, list_pages by cursor, and a damaged or missing index told as the endpoint tells it.
 * Issues 53 and 56 raised it to 120 KB (119,523 measured): pages as their authors wrote them with `url#anchor`
 * sections and `<page>.md`, answers sized to a token budget, long questions, release notes after guides and page
 * families with their variants. The budget catches bloat; code is never folded to fit it.
 */
const MAX_MCP_GZIP_BYTES = 120 * 1024;

describe('the Worker bundle with the MCP server', () => {
  it(`is at most ${MAX_MCP_GZIP_BYTES} bytes gzipped, and the MCP code is only in it`, async () => {
    const mcpEntry = fileURLToPath(new URL('./mcp-entry.ts', import.meta.url));
    const { min, gzip, metafile } = await bundleSize(mcpEntry, 'neutral', ['workerd', 'worker', 'browser']);
    const modules = Object.keys(Object.values(metafile.outputs)[0]!.inputs);
    console.log(`[worker-size] createWorker with MCP: ${min} bytes minified, ${gzip} bytes gzipped (budget ${MAX_MCP_GZIP_BYTES})`);
    expect(modules.some((m) => m.includes('src/mcp/'))).toBe(true);
    expect(modules.filter((m) => m.includes('src/analytics/'))).toEqual([]);
    expect(gzip).toBeLessThanOrEqual(MAX_MCP_GZIP_BYTES);
    // Without it (the test above): no MCP module, no SDK.
    const plain = Object.keys(Object.values((await bundleSize(entry)).metafile.outputs)[0]!.inputs);
    expect(plain.filter((m) => m.includes('src/mcp/') || m.includes('@modelcontextprotocol'))).toEqual([]);
  });
});
