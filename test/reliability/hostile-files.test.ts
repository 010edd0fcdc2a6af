/**
 * Content that would break, stall or bloat a build: each bad file is reported with its name and skipped (or indexed as
 * well as it can be), and every good document still gets indexed.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { resolveConfig } from '../../src/index.js';
import { buildIndex } from '../../src/indexer/index.js';
import { makeProject } from '../helpers/project.js';

const project = makeProject({
  'content/good.md': '# Good\n\nA good page about otters.',
  'content/also-good.mdx': '---\ntitle: Also good\n---\nBeavers build dams.',
  'content/binary.md': '',
  'content/huge.md': '',
  'content/bad-yaml.md': '---\ntitle: [unclosed\n---\nBody text about herons.',
  'content/unclosed.mdx': '# Unclosed\n\n<Tabs>\n\n```js\nconst a = 1;\n',
});
project.write('content/binary.md', randomBytes(20_000).toString('latin1').replace(/^/, '\u0000'));
project.write('content/huge.md', `# Huge\n\n${'lorem ipsum dolor '.repeat(2_900_000)}`); // 50 MB
symlinkSync('..', join(project.dir, 'content', 'loop'));
// A file whose every read fails (EIO), for root too, where chmod 000 would not stop the read.
symlinkSync('/proc/self/mem', join(project.dir, 'content', 'eio.md'));
// A link to nothing: the glob does not list it, but the page it was meant to be is missing.
symlinkSync('moved-away.md', join(project.dir, 'content', 'dangling.md'));
// A named pipe: opening it for reading would wait for a writer forever.
execFileSync('mkfifo', [join(project.dir, 'content', 'pipe.md')]);
afterAll(() => project.cleanup());

it('reports each bad file by name and indexes every good one', async () => {
  // eio.md links out of the content folder (to /proc/self/mem), which is skipped unless allowed: allowed here, so the
  // read is tried and fails.
  const config = resolveConfig({ database: 'd', followLinksOutside: true, sources: [{ dir: 'content', type: 'doc', url: '/:slug' }] });
  const result = await buildIndex(config, { cwd: project.dir });
  const titles = result.documents.map((d) => d.title).sort();
  // The line YAML refuses is read as the author wrote it (issue 54, item 8: invalid YAML is read entry by entry).
  expect(titles).toEqual(['Also good', 'Good', 'Unclosed', '[unclosed']);
  const warnings = result.warnings.map((w) => `${w.file.slice(project.dir.length + 1)}: ${w.message}`);
  expect(warnings).toEqual(
    expect.arrayContaining([
      'content/binary.md: is not text (it contains NUL bytes); skipped',
      'content/huge.md: is 50 MB, over the 10 MB limit for one page; skipped',
      'content/dangling.md: is a symbolic link to moved-away.md, which does not exist; skipped',
      expect.stringMatching(/^content\/eio\.md: could not be read \(EIO: i\/o error, read\); skipped$/),
      expect.stringMatching(/^content\/bad-yaml\.md: invalid YAML frontmatter/),
      expect.stringMatching(/^content\/unclosed\.mdx: unclosed/),
      expect.stringMatching(/^content\/loop\/content\/good\.md: is the same file as .*content\/good\.md \(through a symbolic link\); skipped$/),
    ]),
  );
  // The body of the file with bad YAML is still searchable.
  expect(result.documents.find((d) => d.title === '[unclosed')!.content).toContain('herons');
});
