/** How the bench and the Worker bundle budget test (test/workers/bundle-size.test.ts) size a bundle. */
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';

/**
 * Minified, gzipped (level 9) bytes of a bundle of `entry`, its code, and esbuild's metafile (what each module adds). Matches
 * `wrangler deploy --minify` with `keep_names = false` within a few hundred bytes (docs/benchmarks.md, "Worker bundle").
 */
export async function bundleSize(
  entry: string,
  platform: 'neutral' | 'browser' = 'neutral',
  // Wrangler's export conditions: a package with a Workers build of its own (the MCP SDK) is sized as it ships there.
  conditions: string[] = [],
): Promise<{ min: number; gzip: number; metafile: Metafile; code: string }> {
  // FlexSearch's bundle references worker_threads for its optional Node worker mode; it is not part of a browser build.
  const out = await build({ entryPoints: [entry], bundle: true, minify: true, format: 'esm', platform, mainFields: ['module', 'main'], conditions, external: ['worker_threads'], write: false, metafile: true, logLevel: 'silent' });
  const code = out.outputFiles[0]!.contents;
  return { min: code.length, gzip: gzipSync(code, { level: 9 }).length, metafile: out.metafile, code: out.outputFiles[0]!.text };
}
