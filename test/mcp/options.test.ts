/**
 * The `mcp` and `llms` options in the one options schema: their defaults, their problem texts, and a Worker that turns
 * MCP on without passing `createMcpHandler` (a config error saying what to import, as for analytics).
 */
import { describe, expect, it } from 'vitest';
import { createWorker } from '../../adapters/workers.js';
import { resolveConfig, SiteSearchConfigError } from '../../src/index.js';
import { configProblems } from '../helpers/config-problems.js';

const base = { database: 'd', sources: [{ dir: 'docs', type: 'docs', url: '/docs/:slug' }] };

describe('the mcp and llms options', () => {
  it('default to off; mcp: true stands for the /mcp route and questions up to 500 characters; an object keeps its name and description', () => {
    expect(resolveConfig(base)).toMatchObject({ mcp: false, llms: false });
    expect(resolveConfig({ ...base, mcp: true }).mcp).toEqual({ route: '/mcp', maxQueryLength: 500 });
    expect(resolveConfig({ ...base, mcp: { name: 'Acme docs', description: 'The Acme CLI' } }).mcp).toEqual({ route: '/mcp', maxQueryLength: 500, name: 'Acme docs', description: 'The Acme CLI' });
    expect(resolveConfig({ ...base, mcp: { maxQueryLength: 2000 } }).mcp).toEqual({ route: '/mcp', maxQueryLength: 2000 });
  });

  it('say what is wrong in the project\'s words', () => {
    expect(configProblems({ ...base, mcp: 'yes' })).toEqual(["mcp: must be true, false or an object such as { name: 'Acme docs' }"]);
    expect(configProblems({ ...base, mcp: { route: 'mcp' } })).toEqual(['mcp.route: must start with "/"']);
    expect(configProblems({ ...base, mcp: { nmae: 'Acme' } })).toEqual(['mcp.nmae: unknown option (did you mean "name"?)']);
    expect(configProblems({ ...base, mcp: { maxQueryLength: 0 } })).toEqual([expect.stringMatching(/^mcp\.maxQueryLength: /)]);
    expect(configProblems({ ...base, llms: 'yes' })).toEqual(['llms: must be true or false']);
  });

  it('a Worker with mcp on needs createMcpHandler, and says where it comes from', () => {
    expect(() => createWorker({ ...base, mcp: true })).toThrow(SiteSearchConfigError);
    expect(() => createWorker({ ...base, mcp: true })).toThrow("mcp: pass createWorker(options, { mcp: createMcpHandler }), createMcpHandler from 'site-search/mcp'");
  });
});
