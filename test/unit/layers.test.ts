import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

/** Every relative module a source file imports, as a path under src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) => relative(src, resolve(dirname(file), m[1]!)));
}

/** Every import of a folder's modules, as `file → target`. */
function importsUnder(folder: string): string[] {
  const dir = join(src, folder);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .flatMap((f) => importsOf(join(dir, f)).map((target) => `${f} → ${target}`));
}

describe('the layers (docs/architecture.md)', () => {
  it('src/db/ imports nothing from the layers above it: only itself, src/text/ and the shared errors', () => {
    const found = importsUnder('db');
    expect(found.length).toBeGreaterThan(0);
    expect(found.filter((line) => !/→ (db\/|text\/|errors\.js$)/.test(line))).toEqual([]);
  });

  it('src/ranking/ imports only itself and the layers below it: src/db/, src/text/', () => {
    const found = importsUnder('ranking');
    expect(found.length).toBeGreaterThan(0);
    expect(found.filter((line) => !/→ (ranking\/|db\/|text\/)/.test(line))).toEqual([]);
  });
});
