/**
 * `frontmatter: 'starlight'` in a project without Starlight: the run stops before reading a page, with one line that
 * names the source, the folder searched and the two ways out (the rules themselves are tested in the real Starlight
 * app: test/frameworks/starlight-frontmatter.test.ts). Through the CLI, as a user with a hand-written config meets it.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, expect, it } from 'vitest';
import { makeProject } from '../helpers/project.js';

const run = promisify(execFile);
const CLI = new URL('../../dist/cli.js', import.meta.url).pathname;
let project: ReturnType<typeof makeProject> | undefined;
afterEach(() => project?.cleanup());

it('a source asking for Starlight\'s rules where @astrojs/starlight is not installed fails with one line naming the fix', async () => {
  project = makeProject({
    'search.config.json': JSON.stringify({ database: 'docs', sources: [{ dir: 'content', type: 'docs', url: '/:slug/', frontmatter: 'starlight' }] }),
    'content/page.md': '---\ntitle: A page\n---\n\nText.\n',
  });
  const failed = await run(process.execPath, [CLI, 'index', '--config', 'search.config.json'], { cwd: project.dir }).then(
    () => undefined,
    (e: { code: number; stderr: string }) => e,
  );
  expect(failed?.code).toBe(1);
  const lines = failed!.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^\[site-search\] sources\[0\]\.frontmatter is "starlight", but @astrojs\/starlight is not installed in .+ or a folder above it\. Install it \(npm install @astrojs\/starlight\), or remove "frontmatter" from the source\.$/);
});
