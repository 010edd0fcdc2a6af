/**
 * A Worker as a user exports it with the MCP server on (docs/mcp.md): the search at /api/search and MCP at /mcp over
 * the D1 binding, and /llms.txt and /llms-full.txt from it, for the astro-docs sample's sources (a source per language).
 */
import { createWorker } from '../../adapters/workers.js';
import { createMcpHandler } from '../../src/mcp/index.js';
import { createLlmsHandler } from '../../src/llms/index.js';

const sources = ['de', 'en', 'fr', 'ja', 'ko', 'zh-cn'].map((lang) => ({ dir: lang, type: lang, url: `/${lang}/:slug` }));

export default createWorker({ database: 'bench', sources, mcp: { name: 'Astro docs' } }, { mcp: createMcpHandler, llms: createLlmsHandler });
