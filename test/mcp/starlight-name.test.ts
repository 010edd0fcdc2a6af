/** The Starlight plugin names the MCP server after the site's title when the `mcp` option gives no name. */
import { describe, expect, it } from 'vitest';
import { mcpNamed } from '../../adapters/starlight/mcp-name.js';

describe('the Starlight plugin and the mcp option', () => {
  it('takes the site title (the first locale\'s when it has several), keeps a name given, and leaves mcp off alone', () => {
    expect(mcpNamed(true, 'Otterbox')).toEqual({ mcp: { name: 'Otterbox' } });
    expect(mcpNamed({ route: '/ai' }, { en: 'Otterbox', fr: 'Loutre' })).toEqual({ mcp: { route: '/ai', name: 'Otterbox' } });
    expect(mcpNamed({ name: 'Mine' }, 'Otterbox')).toEqual({ mcp: { name: 'Mine' } });
    expect(mcpNamed(true, undefined)).toEqual({ mcp: {} });
    expect(mcpNamed(false, 'Otterbox')).toEqual({});
    expect(mcpNamed(undefined, 'Otterbox')).toEqual({});
  });
});
