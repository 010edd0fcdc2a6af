/**
 * A Worker as a user exports it with the MCP server and analytics on (docs/mcp.md, docs/analytics.md): the endpoint's
 * and the `search` tool's searches counted into the D1 database, apart, for the astro-docs sample's sources.
 */
import { createWorker } from '../../adapters/workers.js';
import { createMcpHandler } from '../../src/mcp/index.js';
import { recordAnalytics } from '../../src/analytics/index.js';

const sources = ['de', 'en', 'fr', 'ja', 'ko', 'zh-cn'].map((lang) => ({ dir: lang, type: lang, url: `/${lang}/:slug` }));

export default createWorker(
  { database: 'bench', sources, mcp: { name: 'Astro docs' }, analytics: { flushSeconds: 0 } },
  { mcp: createMcpHandler, recordAnalytics },
);
