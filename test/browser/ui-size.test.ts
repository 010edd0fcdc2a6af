/**
 * The `<site-search>` element's weight as a site ships it: bundled from source, minified, gzipped at level 9; and as
 * published (`dist/ui.js`, unminified, which plain-HTML and Worker setups copy as it is; needs `npm run build`). Every
 * size the docs state is one of these measurements, checked here (issue 55, item 3: the box was 7.4 KB in one place
 * and 8.0 KB in another). Also checks the rules the element's source keeps: no HTML parsing of data, no Node built-ins.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const UI_DIR = new URL('../../src/ui/', import.meta.url);
/**
 * The box's budget: 10 KB, the project's (issue 37 set 8 KB, issue 7 6 KB before recent searches, languages and
 * shareable searches; the code is not folded to fit one).
 */
const MAX_GZIP_BYTES = 10 * 1024;
/** A translation is loaded beside the box on a page in its language; each stays small. */
const MAX_LOCALE_GZIP_BYTES = 1024;

const gzipped = (code: Uint8Array) => gzipSync(code, { level: 9 }).length;

/**
 * Bundles `src/ui/index.ts` as a site's bundler would (minified, code splitting on), and returns each output file
 * with the files it imports statically: what a page loads before the box works. Dynamic `import()`s (translations)
 * are files of their own, loaded only where needed.
 */
async function bundle(entry = 'index.ts'): Promise<{ entry: Uint8Array[]; lazy: Map<string, Uint8Array> }> {
  const result = await build({
    entryPoints: { ui: new URL(entry, UI_DIR).pathname },
    bundle: true,
    minify: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    outdir: '/virtual-out',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const byPath = new Map(result.outputFiles.map((f) => [f.path.replace('/virtual-out/', ''), f.contents]));
  const outputs = result.metafile!.outputs;
  const eager = new Set<string>();
  const walk = (file: string) => {
    if (eager.has(file)) return;
    eager.add(file);
    for (const i of outputs[`../virtual-out/${file}`]?.imports ?? outputs[`virtual-out/${file}`]?.imports ?? []) {
      if (i.kind === 'import-statement') walk(i.path.replace(/^(\.\.\/)?virtual-out\//, ''));
    }
  };
  walk('ui.js');
  const lazy = new Map([...byPath].filter(([file]) => !eager.has(file)));
  return { entry: [...eager].map((f) => byPath.get(f)!), lazy };
}

describe('site-search/ui bundle', () => {
  it(`the box is at most ${MAX_GZIP_BYTES} bytes minified and gzipped; each translation at most ${MAX_LOCALE_GZIP_BYTES}`, async () => {
    const { entry, lazy } = await bundle();
    const minified = entry.reduce((n, c) => n + c.length, 0);
    const size = entry.reduce((n, c) => n + gzipped(c), 0);
    const locales = [...lazy].map(([file, code]) => [file, gzipped(code)] as const);
    const largest = Math.max(...locales.map(([, n]) => n));
    console.log(`[ui-size] site-search/ui: ${minified} bytes minified, ${size} bytes gzipped (budget ${MAX_GZIP_BYTES}); ${locales.length} lazy files, the largest ${largest} bytes gzipped`);
    expect(size).toBeLessThanOrEqual(MAX_GZIP_BYTES);
    // The translations are split off, not in the box (the languages the element knows, one file each).
    expect(locales.length).toBeGreaterThanOrEqual(12);
    expect(largest).toBeLessThanOrEqual(MAX_LOCALE_GZIP_BYTES);
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

  it('every size the docs state is the size measured: the box, dist/ui.js as published, a translation, the highlight module', async () => {
    const box = await bundle();
    const highlight = await bundle('highlight.ts');
    const measured = {
      box: box.entry.reduce((n, c) => n + gzipped(c), 0),
      published: gzipped(readFileSync(new URL('../../dist/ui.js', import.meta.url))),
      translation: Math.max(...[...box.lazy.values()].map(gzipped)),
      highlight: highlight.entry.reduce((n, c) => n + gzipped(c), 0),
      budget: MAX_GZIP_BYTES,
    };
    const kb = (bytes: number) => (bytes / 1024).toFixed(1);
    console.log(`[ui-size] ${Object.entries(measured).map(([what, bytes]) => `${what} ${kb(bytes)} KB (${bytes} bytes)`).join(', ')}`);
    for (const { file, pattern, figure } of STATED) {
      const text = readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
      const found = [...text.matchAll(pattern)].map((m) => m[1]);
      expect(found, `${file} states the ${figure} size once: ${pattern}`).toHaveLength(1);
      expect(`${found[0]} KB`, `${file}, the ${figure} size`).toBe(`${figure === 'budget' ? measured.budget / 1024 : kb(measured[figure])} KB`);
    }
  });
});

/**
 * Where the README and the docs state each size, and which measurement it is: each pattern must match once and its
 * figure be the measurement rounded to 0.1 KB. A size stated anywhere else is not checked: state it here or link to
 * docs/ui.md#size.
 */
const STATED: { file: string; pattern: RegExp; figure: 'box' | 'published' | 'translation' | 'highlight' | 'budget' }[] = [
  { file: 'README.md', pattern: /works in plain HTML and any framework, (\d+\.\d) KB minified and gzipped/g, figure: 'box' },
  { file: 'docs/ui.md', pattern: /\*\*(\d+\.\d) KB\*\* minified and gzipped, styles included/g, figure: 'box' },
  { file: 'docs/ui.md', pattern: /\| `site-search\/ui`, bundled by your site \(minified\) \| \*\*(\d+\.\d) KB\*\* \|/g, figure: 'box' },
  { file: 'docs/ui.md', pattern: /\| `dist\/ui\.js` as published \(unminified\)[^|]*\| (\d+\.\d) KB \|/g, figure: 'published' },
  { file: 'docs/ui.md', pattern: /\| a translation, `dist\/ui-locales\/<lang>\.js` \(minified\) \| at most (\d+\.\d) KB \|/g, figure: 'translation' },
  { file: 'docs/ui.md', pattern: /\| `site-search\/ui\/highlight` \(minified\) \| (\d+\.\d) KB \|/g, figure: 'highlight' },
  { file: 'docs/ui.md', pattern: /fails above the (\d+) KB budget/g, figure: 'budget' },
];
