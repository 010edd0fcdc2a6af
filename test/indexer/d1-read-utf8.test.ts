/**
 * What a D1 push reads back through `wrangler d1 execute --json` arrives in chunks, and a chunk may end inside a
 * character. Each chunk was decoded on its own, so a word or URL cut there came back garbled: it no longer matched the
 * page's, and every push removed it and inserted it again (seen on the astro-docs pages as "0 changed … 4 rows
 * written" on every push with nothing to change, for a Korean word). Pages full of three-byte characters make the
 * read hundreds of kilobytes, so chunk ends land inside characters; a push of the same pages must then write nothing.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { makeProject } from '../helpers/project.js';

const run = promisify(execFile);
const CLI = new URL('../../dist/cli.js', import.meta.url).pathname;
const env = { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true' };

/** The `i`-th of distinct four-syllable Hangul words (three UTF-8 bytes a syllable), deterministic. */
const word = (i: number) => [0, 1, 2, 3].map((k) => String.fromCodePoint(0xac00 + ((i * 4 + k) * 7919) % 11172)).join('');
const files: Record<string, string> = {
  'wrangler.toml': `name = "utf8"\ncompatibility_date = "2026-07-01"\n\n[[d1_databases]]\nbinding = "SEARCH_DB"\ndatabase_name = "utf8-search"\ndatabase_id = "00000000-0000-4000-8000-0000000000f8"\n`,
  'search.config.json': JSON.stringify({ database: 'utf8-search', sources: [{ dir: 'content', type: 'ko', url: '/ko/:slug/' }] }),
};
for (let p = 0; p < 20; p++) {
  const words = Array.from({ length: 300 }, (_, i) => word(p * 300 + i));
  files[`content/${word(100_000 + p)}.md`] = `---\ntitle: ${words[0]}\n---\n${words.join(' ')}\n`;
}
const project = makeProject(files);
afterAll(() => project.cleanup());

const push = async () =>
  (await run(process.execPath, [CLI, 'index', '--d1', 'local', '--', '--persist-to', 'd1-state'], { cwd: project.dir, env })).stdout;

it('a push of pages in a three-byte script reads every word and URL back intact: the next push writes nothing', async () => {
  expect(await push()).toMatch(/20 pages: 20 added, 0 changed, 0 removed, 0 unchanged/);
  expect(await push()).toMatch(/20 pages: 0 added, 0 changed, 0 removed, 20 unchanged; 0 rows written/);
}, 180_000);
