import { recordAnalytics } from 'site-search/analytics';
import { createMcpHandler } from 'site-search/mcp';
import { toNextMcpHandler } from 'site-search/next';
import { openAnalytics, openSqlite } from 'site-search/node';
import options from '../../search.config.mjs';

// The MCP server with analytics, as docs/mcp.md wires Node, counting into the same file as app/api/counted (issue 54).
const counted = { ...options, analytics: { flushSeconds: 3600 } };
export const { GET, POST, OPTIONS } = toNextMcpHandler(
  createMcpHandler(counted, { db: () => openSqlite('.site-search/search.db'), analytics: () => openAnalytics(counted), recordAnalytics }),
);
