import type { SearchOptions } from '../../src/index.js';

/**
 * The `mcp` option with the site's Starlight title as its `name` when none is given, so the MCP tools' descriptions
 * name the site to a model (docs/mcp.md); a title per locale gives the first one's. Nothing when the option is off.
 * @internal
 */
export function mcpNamed(mcp: SearchOptions['mcp'], title: unknown): Pick<SearchOptions, 'mcp'> {
  if (!mcp) return {};
  const given = mcp === true ? {} : mcp;
  const name = typeof title === 'string' ? title : title && typeof title === 'object' ? Object.values(title).find((t) => typeof t === 'string') : undefined;
  return { mcp: given.name || typeof name !== 'string' || !name.trim() ? given : { ...given, name: name.trim() } };
}
