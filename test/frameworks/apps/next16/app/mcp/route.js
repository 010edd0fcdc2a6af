import { createMcpHandler } from 'site-search/mcp';
import { toNextMcpHandler } from 'site-search/next';
import { openSqlite } from 'site-search/node';
import options from '../../search.config.mjs';

// The MCP server for AI assistants (docs/mcp.md), on the host the client used.
export const { GET, POST, OPTIONS } = toNextMcpHandler(createMcpHandler(options, { db: () => openSqlite('.site-search/search.db') }));
