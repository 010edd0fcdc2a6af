import { createMcpHandler } from 'site-search/mcp';
import { openSqlite } from 'site-search/node';
import { toSvelteKitMcpHandler } from 'site-search/sveltekit';
import options from '../../../search.config.mjs';

// The MCP server for AI assistants (docs/mcp.md).
export const POST = toSvelteKitMcpHandler(createMcpHandler(options, { db: () => openSqlite('.site-search/search.db') }));
