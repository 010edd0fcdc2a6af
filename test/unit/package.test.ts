/**
 * The built package as users get it: every export resolves with types, and the runtime entries that ship inside
 * Workers import nothing from `node:`. Needs `npm run build` first (the test command does it).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** Every file an entry loads, following relative imports through the chunks tsup writes. */
function moduleGraph(entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  const code = readFileSync(entry, 'utf8');
  for (const [, spec] of code.matchAll(/(?:from|import)\s*\(?\s*["'](\.[^"']+)["']/g)) moduleGraph(join(dirname(entry), spec!), seen);
  return seen;
}

describe('package.json', () => {
  it('is ESM only, side-effect free except the UI entry (importing it registers <site-search>), and needs a Node whose node:sqlite works without a flag (22.13+, 23.4+)', () => {
    expect(pkg.type).toBe('module');
    expect(pkg.sideEffects).toEqual(['./dist/ui.js']);
    // node:sqlite is unflagged from 22.13 and, in the 23 line, from 23.4; the CLI and Node adapters use it by default.
    expect(pkg.engines.node).toBe('^22.13.0 || >=23.4.0');
  });

  it.each(Object.entries(pkg.exports).filter(([k]) => k !== './package.json'))('export %s has built code and types', (_, target) => {
    const { types, default: code } = target as { types: string; default: string };
    expect(existsSync(join(root, code)), `${code} missing: run npm run build`).toBe(true);
    expect(existsSync(join(root, types))).toBe(true);
  });

  it.each(['.', './workers', './astro/route', './next', './sveltekit'])('the %s entry imports no node: built-in (it runs in Workers)', (entry) => {
    const file = join(root, (pkg.exports[entry] as { default: string }).default);
    for (const module of moduleGraph(file)) {
      expect(readFileSync(module, 'utf8'), module).not.toMatch(/from\s*["']node:|import\(["']node:|require\(["']node:/);
    }
  });

  it('exports the public API by its documented names', async () => {
    const core = await import(join(root, 'dist/index.js'));
    for (const name of ['createSearchHandler', 'resolveConfig', 'defineSearchOptions', 'toFtsQuery', 'searchIndex', 'ensureSchema']) {
      expect(typeof core[name], name).toBe('function');
    }
    expect(typeof (await import(join(root, 'dist/node.js'))).openSqlite).toBe('function');
    expect(typeof (await import(join(root, 'dist/workers.js'))).createWorker).toBe('function');
  });
});
