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

/** `folder/file.ts → target` for every relative import of every module under src/`folder`, subfolders included. */
function importsUnder(folder: string, keep: (line: string) => boolean = () => true): string[] {
  const dir = join(src, folder);
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ts'))
    .flatMap((f) => {
      const file = join(dir, f);
      const lines = readFileSync(file, 'utf8').split('\n').filter(keep).join('\n');
      return [...lines.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) => `${folder}/${f} → ${relative(src, resolve(dirname(file), m[1]!))}`);
    });
}

describe('the layers (docs/architecture.md)', () => {
  it('src/indexer/ and src/analytics/ take the text rules they share with the search from src/text/, not from src/search/', () => {
    const indexer = importsUnder('indexer');
    expect(indexer.length).toBeGreaterThan(0);
    expect(indexer.filter((line) => line.includes('→ search/'))).toEqual([]);
    // The recorder is handed the input the handler validated: a type, which no code follows at run time.
    const analytics = importsUnder('analytics', (line) => !line.startsWith('import type '));
    expect(analytics.length).toBeGreaterThan(0);
    expect(analytics.filter((line) => line.includes('→ search/'))).toEqual([]);
  });

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

  it('src/db/ never sees a request: no Request, socket, address or request-scoped context, only an opaque client key the layer above names', () => {
    const dir = join(src, 'db');
    const code = readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .map((f) => [f, readFileSync(join(dir, f), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')] as const);
    expect(code.length).toBeGreaterThan(0);
    const seen = code.flatMap(([f, text]) => [...text.matchAll(/\b(Request|Response|IncomingMessage|ServerResponse|remoteAddress|AsyncLocalStorage|node:http|node:async_hooks)\b/g)].map((m) => `${f}: ${m[1]}`));
    expect(seen).toEqual([]);
  });

  it('nothing under src/ imports adapters/: the framework entries sit on top, and the Node bridge lives in src/http/', () => {
    const all = readdirSync(src).filter((f) => !f.includes('.')).flatMap((folder) => importsUnder(folder));
    expect(all.length).toBeGreaterThan(100);
    expect(all.filter((line) => line.includes('→ ../adapters/'))).toEqual([]);
  });
});
