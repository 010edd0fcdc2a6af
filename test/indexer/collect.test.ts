import { relative } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { resolveConfig } from '../../src/index.js';
import { collectDocuments } from '../../src/indexer/collect.js';
import { makeProject } from '../helpers/project.js';

const project = makeProject({
  'content/a.md': '# A',
  'content/b.mdx': '# B',
  'content/notes.txt': 'not content',
  'content/deep/nested/c.md': '# C',
  'content/Templates/t.md': '# template',
  'content/deep/Templates/t2.md': '# nested template',
  'content/.hidden/h.md': '# hidden',
  'content/deep/.git/x.md': '# dot folder',
  'content/node_modules/pkg/readme.md': '# dependency',
  'content/drafts-dir/d.md': '# kept',
  'pages/about.md': '# About',
});
afterAll(() => project.cleanup());

it('finds .md and .mdx recursively, skipping skipDirs at any depth, dot-folders and node_modules', async () => {
  const config = resolveConfig({ database: 'd', sources: [{ dir: 'content', type: 'doc', url: '/docs/:slug' }] });
  const files = await collectDocuments(config, { cwd: project.dir });
  expect(files.map((f) => f.relativePath)).toEqual(['a.md', 'b.mdx', 'deep/nested/c.md', 'drafts-dir/d.md']);
  expect(relative(project.dir, files[0]!.path)).toBe('content/a.md');
});

it('honours custom skipDirs and explicit files', async () => {
  const config = resolveConfig({
    database: 'd',
    sources: [
      { dir: 'content', type: 'doc', url: '/docs/:slug', skipDirs: ['deep', 'drafts-dir'] },
      { files: ['pages/about.md'], type: 'page', url: '/about/' },
    ],
  });
  const files = await collectDocuments(config, { cwd: project.dir });
  expect(files.map((f) => `${f.source.type}:${f.relativePath}`)).toEqual(['doc:Templates/t.md', 'doc:a.md', 'doc:b.mdx', 'page:pages/about.md']);
});

it('names the source and the fix when a dir or file is missing', async () => {
  const config = resolveConfig({ database: 'd', sources: [{ dir: 'nope', type: 'doc', url: '/:slug' }] });
  await expect(collectDocuments(config, { cwd: project.dir })).rejects.toThrow('[site-search] sources[0].dir: nope is not a directory');
  const files = resolveConfig({ database: 'd', sources: [{ files: ['missing.md'], type: 'doc', url: '/x' }] });
  await expect(collectDocuments(files, { cwd: project.dir })).rejects.toThrow('sources[0].files: missing.md does not exist');
});
