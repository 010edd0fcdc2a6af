/** Gzipped bundle sizes: the Worker as a user bundles it, and each peer's search code. */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { here, work } from './measure.js';

/** Minified, gzipped bytes of a bundle of `entry`. */
export async function bundleSize(entry: string, platform: 'neutral' | 'browser' = 'neutral'): Promise<{ min: number; gzip: number }> {
  // FlexSearch's bundle references worker_threads for its optional Node worker mode; it is not part of a browser build.
  const out = await build({ entryPoints: [entry], bundle: true, minify: true, format: 'esm', platform, mainFields: ['module', 'main'], external: ['worker_threads'], write: false, logLevel: 'silent' });
  const code = out.outputFiles[0]!.contents;
  return { min: code.length, gzip: gzipSync(code, { level: 9 }).length };
}

export async function bundles() {
  const peerEntry = (name: string, code: string) => {
    const file = join(work, `entry-${name}.mjs`);
    writeFileSync(file, code);
    return file;
  };
  // Pagefind's client is the same whatever the corpus: take the output of any size this run built.
  const pagefindDir = join(work, readdirSync(work).filter((name) => name.startsWith('pagefind-')).sort()[0] ?? 'pagefind-1831');
  const pagefindJs = readFileSync(join(pagefindDir, 'pagefind.js'));
  const wasm = readFileSync(join(pagefindDir, 'wasm.en.pagefind'));
  return {
    'site-search Worker (createWorker: core + workers entry)': await bundleSize(join(here, '../adapters/workers.ts')),
    'MiniSearch': await bundleSize(peerEntry('minisearch', "export { default } from 'minisearch';")),
    'Orama': await bundleSize(peerEntry('orama', "export { create, insert, search } from '@orama/orama';")),
    'FlexSearch': await bundleSize(peerEntry('flexsearch', "export { default } from 'flexsearch';")),
    'Pagefind (pagefind.js + its WebAssembly, as served)': { min: pagefindJs.length + wasm.length, gzip: gzipSync(pagefindJs).length + wasm.length },
  };
}
