/**
 * Issue 44, item 6, as a user meets it: `site-search index` over pages whose frontmatter turns search off the way YAML
 * users write it. The CLI (dist/cli.js, a child process) says so in one line per field, naming the file.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { makeProject } from '../helpers/project.js';

const CLI = new URL('../../dist/cli.js', import.meta.url).pathname;
const run = (args: string[], cwd: string) => promisify(execFile)(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, CI: 'true' } });

const project = makeProject({
  'search.config.json': JSON.stringify({ database: 'intent', sources: [{ dir: 'content', type: 'doc', url: '/docs/:slug' }] }),
  'content/public.md': '---\ntitle: Public page\n---\nOtters are public knowledge.',
  'content/quoted.md': '---\ntitle: Quoted\nsearch: "false"\n---\nThe zanzibar plan is secret.',
  'content/starlight.md': '---\ntitle: Starlight\npagefind: "false"\n---\nThe quokka plan is secret.',
  'content/object.md': '---\ntitle: Object\nsearch:\n  exclude: true\n---\nThe wombat plan.',
});
afterAll(() => project.cleanup());

describe('site-search index: search intent in frontmatter', () => {
  it('skips a page whose search: or pagefind: is the string "false", and warns in one line per field naming the file', async () => {
    const { stdout, stderr } = await run(['index'], project.dir);
    expect(stdout).toMatch(/\[site-search\] 2 pages: .*\(0 drafts skipped, 2 with search: false skipped, 0 bodies truncated, 3 warnings\)/);
    expect(stderr.trim().split('\n').sort()).toEqual([
      '[site-search] warning: content/object.md: frontmatter search.exclude: unknown key, ignored (search: takes boost; write search: false to keep the page out of search)',
      '[site-search] warning: content/quoted.md: frontmatter search: "false" is a string, read as false: the page is not indexed (write search: false, without quotes)',
      '[site-search] warning: content/starlight.md: frontmatter pagefind: "false" is a string, read as false: the page is not indexed (write pagefind: false, without quotes)',
    ]);
    const found = async (q: string) => (JSON.parse((await run(['query', q, '--json'], project.dir)).stdout) as { results: { title: string }[] }).results.map((r) => r.title);
    expect(await found('zanzibar')).toEqual([]);
    expect(await found('quokka')).toEqual([]);
    expect(await found('wombat')).toEqual(['Object']);
  });
});
