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

it('leaves out a 404.md or 404.mdx at the top of a source folder (the site\'s not-found page), not one deeper or listed', async () => {
  const site = makeProject({
    'docs/404.md': '# Page not found',
    'docs/404.mdx': '# Page not found',
    'docs/guide.md': '# Guide',
    'docs/errors/404.md': '# The 404 status',
    'extra/404.md': '# Listed on purpose',
  });
  try {
    const config = resolveConfig({
      database: 'd',
      sources: [
        { dir: 'docs', type: 'doc', url: '/:slug/' },
        { files: ['extra/404.md'], type: 'page', url: '/gone/' },
      ],
    });
    const files = await collectDocuments(config, { cwd: site.dir });
    expect(files.map((f) => `${f.source.type}:${f.relativePath}`)).toEqual(['doc:errors/404.md', 'doc:guide.md', 'page:extra/404.md']);
  } finally {
    site.cleanup();
  }
});

it('names the source and the fix when a dir or file is missing', async () => {
  const config = resolveConfig({ database: 'd', sources: [{ dir: 'nope', type: 'doc', url: '/:slug' }] });
  await expect(collectDocuments(config, { cwd: project.dir })).rejects.toThrow('[site-search] sources[0].dir: nope is not a directory');
  const files = resolveConfig({ database: 'd', sources: [{ files: ['missing.md'], type: 'doc', url: '/x' }] });
  await expect(collectDocuments(files, { cwd: project.dir })).rejects.toThrow('sources[0].files: missing.md does not exist');
});
