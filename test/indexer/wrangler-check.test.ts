import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/index.js';
import { checkDatabaseConfig } from '../../src/indexer/index.js';
import { makeProject } from '../helpers/project.js';

const config = resolveConfig({ database: 'blog-search', sources: [{ dir: 'c', type: 'post', url: '/:slug' }] });
let cleanup = () => {};
const inProject = (files: Record<string, string>) => {
  const p = makeProject(files);
  cleanup = p.cleanup;
  return p.dir;
};
afterEach(() => cleanup());

describe('checkDatabaseConfig', () => {
  it('passes for a matching wrangler.toml entry', () => {
    const dir = inProject({ 'wrangler.toml': '[[d1_databases]]\nbinding = "SEARCH_DB"\ndatabase_name = "blog-search"\ndatabase_id = "x"\n' });
    expect(checkDatabaseConfig(config, dir)).toMatchObject({ ok: true });
  });

  it('finds entries under env.* in wrangler.jsonc with comments and trailing commas', () => {
    const dir = inProject({
      'wrangler.jsonc': `{
        // production only
        "name": "blog",
        "env": { "production": { "d1_databases": [ { "binding": "SEARCH_DB", "database_name": "blog-search", "database_id": "x", }, ], }, },
      }`,
    });
    expect(checkDatabaseConfig(config, dir)).toEqual({ ok: true, file: expect.stringMatching(/wrangler\.jsonc$/), environment: 'production' });
  });

  it('reads wrangler.json', () => {
    const dir = inProject({ 'wrangler.json': JSON.stringify({ d1_databases: [{ binding: 'SEARCH_DB', database_name: 'blog-search' }] }) });
    expect(checkDatabaseConfig(config, dir).ok).toBe(true);
  });

  it('says there is no wrangler config, with the snippet to paste', () => {
    const check = checkDatabaseConfig(config, inProject({}));
    expect(check).toMatchObject({ ok: false, problem: 'no-config' });
    if (check.ok) return;
    expect(check.message).toMatch(/^\[site-search\] No wrangler config in .* \(looked for wrangler\.toml, wrangler\.json, wrangler\.jsonc\)/);
    expect(check.message).toContain('create wrangler.jsonc with:');
    expect(JSON.parse(check.snippet!)).toEqual({
      d1_databases: [{ binding: 'SEARCH_DB', database_name: 'blog-search', database_id: '<id printed by: npx wrangler d1 create blog-search>' }],
    });
  });

  it('says no entry has that database_name, listing the ones found', () => {
    const dir = inProject({ 'wrangler.toml': '[[d1_databases]]\nbinding = "DB"\ndatabase_name = "other-db"\n' });
    const check = checkDatabaseConfig(config, dir);
    expect(check).toMatchObject({ ok: false, problem: 'no-database' });
    if (!check.ok) expect(check.message).toMatch(/wrangler\.toml has no d1_databases entry with database_name "blog-search" \(found "other-db"\)/);
  });

  it('names both bindings on a mismatch, and both ways to fix it', () => {
    const dir = inProject({ 'wrangler.json': JSON.stringify({ d1_databases: [{ binding: 'DB', database_name: 'blog-search' }] }) });
    const check = checkDatabaseConfig(config, dir);
    expect(check).toMatchObject({ ok: false, problem: 'binding-mismatch' });
    if (!check.ok) {
      expect(check.message).toBe(
        '[site-search] In wrangler.json, the d1_databases entry for "blog-search" has binding "DB", but site-search reads "SEARCH_DB". Set "binding": "SEARCH_DB" in wrangler.json, or binding: "DB" in your search options.',
      );
      expect(check.snippet).toContain('"binding": "SEARCH_DB"');
    }
  });

  it('reports a config it cannot parse instead of throwing', () => {
    const check = checkDatabaseConfig(config, inProject({ 'wrangler.toml': '[[d1_databases]\nbinding = ' }));
    expect(check).toMatchObject({ ok: false, problem: 'unreadable', message: expect.stringMatching(/^\[site-search\] wrangler\.toml could not be parsed/) });
  });
});
