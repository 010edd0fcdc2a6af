/**
 * `npm run bench:d1`: only the D1 measurements (a minute, against the whole bench's half hour), replacing the
 * "D1 under Miniflare" section of docs/benchmarks.md and leaving the rest of the page as the last full run wrote it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { documents } from './corpus.js';
import { d1Section } from './d1-section.js';
import { d1 } from './perf.js';

const page = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'benchmarks.md');
const section = d1Section(await d1(await documents(1831)));
const doc = readFileSync(page, 'utf8');
const start = doc.indexOf('## D1 under Miniflare');
if (start === -1) throw new Error('[site-search] docs/benchmarks.md has no "## D1 under Miniflare" section: run npm run bench once.');
const next = doc.indexOf('\n## ', start + 1);
writeFileSync(page, doc.slice(0, start) + section + (next === -1 ? '' : doc.slice(next)));
console.error('[bench] wrote the D1 section of docs/benchmarks.md');
