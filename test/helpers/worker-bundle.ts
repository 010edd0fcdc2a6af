import { build } from 'esbuild';

/** Bundles test/workers/worker-entry.ts (createWorker as users export it) into one module script for workerd. */
export async function bundleTestWorker(): Promise<string> {
  const out = await build({
    entryPoints: [new URL('../workers/worker-entry.ts', import.meta.url).pathname],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    write: false,
  });
  return out.outputFiles[0]!.text;
}
