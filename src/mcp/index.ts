/**
 * `site-search/mcp`: the Model Context Protocol server for AI assistants (docs/mcp.md), over the same index as the
 * search endpoint. Needs the optional peer dependency `@modelcontextprotocol/server`; a site that does not import this
 * entry installs and ships nothing of it.
 */
export { createMcpHandler, type McpHandler, type McpRuntime } from './handler.js';
export type { ToolAnswer, ToolResult } from './results.js';
