import { toNextHandler } from 'site-search/next';
import { openAnalytics, openSqlite } from 'site-search/node';
import options from '../../../search.config.mjs';

// Analytics on, as docs/analytics.md wires Next.js on Node, beside app/mcp-counted: the endpoint and the MCP server count
// into one analytics file (issue 54, item 6). Counts wait an hour in memory: only the process's stop writes them.
const counted = { ...options, analytics: { flushSeconds: 3600 } };
export const { GET, HEAD, OPTIONS, POST } = toNextHandler(counted, { db: () => openSqlite('.site-search/search.db'), analytics: () => openAnalytics(counted) });
