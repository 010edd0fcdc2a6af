/**
 * The `<site-search>` element's weight as a site ships it: bundled from source, minified, gzipped at level 9. Also
 * checks the rules the element's source keeps: no HTML parsing of data, no Node built-ins.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const UI_DIR = new URL('../../src/ui/', import.meta.url);
/** The budget from issue 7; docs/ui.md records the measured figure. */
const MAX_GZIP_BYTES = 6 * 1024;

describe('site-search/ui bundle', () => {
  it(`is at most ${MAX_GZIP_BYTES} bytes minified and gzipped`, async () => {
    const result = await build({
      entryPoints: [new URL('index.ts', UI_DIR).pathname],
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      logLevel: 'silent',
    });
    const code = result.outputFiles[0]!.contents;
    const gzipped = gzipSync(code, { level: 9 }).length;
    console.log(`[ui-size] site-search/ui: ${code.length} bytes minified, ${gzipped} bytes gzipped (budget ${MAX_GZIP_BYTES})`);
    expect(gzipped).toBeLessThanOrEqual(MAX_GZIP_BYTES);
  });

  it('builds DOM without HTML parsing and imports no node: built-in', () => {
    const files = readdirSync(UI_DIR).filter((f) => f.endsWith('.ts'));
    expect(files).toContain('index.ts');
    for (const file of files) {
      const source = readFileSync(new URL(file, UI_DIR), 'utf8');
      expect(source, file).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|DOMParser|createContextualFragment/);
      expect(source, file).not.toMatch(/from\s*['"]node:|import\(['"]node:/);
    }
  });
});
