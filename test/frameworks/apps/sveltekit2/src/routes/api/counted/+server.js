import { openAnalytics, openSqlite } from 'site-search/node';
import { toSvelteKitHandler } from 'site-search/sveltekit';
import options from '../../../../search.config.mjs';

// Analytics on, as docs/analytics.md wires SvelteKit on Node, beside routes/mcp-counted: the endpoint and the MCP server
// count into one analytics file (issue 54, item 6). Counts wait an hour in memory: only the process's stop writes them.
const counted = { ...options, analytics: { flushSeconds: 3600 } };
export const GET = toSvelteKitHandler(counted, { db: () => openSqlite('.site-search/search.db'), analytics: () => openAnalytics(counted) });
export const OPTIONS = GET;
export const POST = GET;
