/** Gzipped bundle sizes: the Worker as a user bundles it, and each peer's search code. */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { bundleSize as sized } from './bundle-size.js';
import { here, work } from './measure.js';

/** Minified, gzipped bytes of a bundle of `entry`. */
async function bundleSize(entry: string, platform: 'neutral' | 'browser' = 'neutral'): Promise<{ min: number; gzip: number }> {
  const { min, gzip } = await sized(entry, platform);
  return { min, gzip };
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
