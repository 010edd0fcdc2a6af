/**
 * `site-search llms --out DIR` (the built CLI, as a user runs it) on the in-repo astro-docs sample: llms.txt as
 * llmstxt.org specifies it (an H1 with the site's name, a `>` summary, an H2 per type, a `- [title](url): description`
 * line per page) and llms-full.txt with every page as `get_page` gives it.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { corpusOptions } from '../../bench/labeled-queries.js';
import { SAMPLE_CORPUS } from '../helpers/corpus.js';
import { makeProject } from '../helpers/project.js';

const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const PAGES = 48;

describe('site-search llms', () => {
  it('writes llms.txt and llms-full.txt for the sample corpus from the local index', () => {
    const project = makeProject({
      'search.config.json': JSON.stringify({ ...corpusOptions(SAMPLE_CORPUS), mcp: { name: 'Astro docs', description: 'Build fast websites with Astro' } }),
    });
    try {
      const cli = (...args: string[]) => execFileSync(process.execPath, [CLI, ...args], { cwd: project.dir, encoding: 'utf8', env: { ...process.env, CI: 'true' } });
      cli('index');
      expect(cli('llms', '--out', 'public', '--origin', 'https://docs.astro.build')).toContain('wrote');
      const index = readFileSync(join(project.dir, 'public/llms.txt'), 'utf8');
      const lines = index.trimEnd().split('\n');
      expect(lines.slice(0, 3)).toEqual(['# Astro docs', '', '> Build fast websites with Astro']);
      expect(lines.filter((l) => l.startsWith('## '))).toEqual(['## de', '## en', '## fr', '## ja', '## ko', '## zh-cn']);
      const entries = lines.filter((l) => l.startsWith('- '));
      expect(entries).toHaveLength(PAGES);
      expect(entries.every((l) => /^- \[[^\]]+\]\(https:\/\/docs\.astro\.build\/[^)\s]+\)(: .+)?$/.test(l))).toBe(true);
      expect(entries).toContain('- [Actions](https://docs.astro.build/en/guides/actions): Learn how to create type-safe server functions you can call from anywhere.');
      // Nothing but headings, the summary, entries and blank lines.
      expect(lines.every((l) => l === '' || /^(# |> |## |- \[)/.test(l))).toBe(true);

      const full = readFileSync(join(project.dir, 'public/llms-full.txt'), 'utf8');
      // A page as written may hold `---` lines of its own: the pages are counted by the lines that start them.
      expect(full.match(/\n---\n\n# [^\n]+\n\nURL: https:\/\/docs\.astro\.build\//g)).toHaveLength(PAGES);
      expect(full).toContain('# Actions\n\nURL: https://docs.astro.build/en/guides/actions\n');
      expect(full).toContain('\n## Basic usage\n');
    } finally {
      project.cleanup();
    }
  }, 120_000);

  // Issue 55, item 3: the Starlight summary read "> 20 pages of Otterly, with its title, address and description."
  it('without a description, the summary counts the pages in words that agree with the count', async () => {
    const { llmsTxt, llmsFullTxt } = await import('../../src/llms/index.js');
    const { resolveConfig } = await import('../../src/index.js');
    const { openSqlite } = await import('../../adapters/node.js');
    const { seed, siteDocs } = await import('../helpers/documents.js');
    const config = resolveConfig({ database: 'llms-summary', sources: [{ dir: 'docs', type: 'doc', url: '/docs/:slug' }] });
    const summary = async (pages: number) => {
      const db = openSqlite(':memory:');
      try {
        await seed(db, siteDocs().slice(0, pages));
        const index = await llmsTxt(config, db, { name: 'Otterly' });
        let full = '';
        for await (const part of llmsFullTxt(config, db, { name: 'Otterly' })) full += part;
        return [index.split('\n')[2], full.split('\n')[2]];
      } finally {
        db.close();
      }
    };
    expect(siteDocs().length).toBeGreaterThan(2);
    expect(await summary(2)).toEqual(['> 2 pages of Otterly, each with its title, address and description.', '> Every page of Otterly in full, with its title and address.']);
    expect((await summary(1))[0]).toBe('> 1 page of Otterly, with its title, address and description.');
  });

  it('says what to run when there is no index yet', () => {
    const project = makeProject({ 'search.config.json': JSON.stringify(corpusOptions(SAMPLE_CORPUS)) });
    try {
      execFileSync(process.execPath, [CLI, 'llms'], { cwd: project.dir, encoding: 'utf8', stdio: 'pipe' });
      expect.unreachable();
    } catch (e) {
      expect((e as { stderr: string }).stderr).toMatch(/no local index at .*search\.db to write llms\.txt from\. Run "site-search index" before the build\./);
    } finally {
      project.cleanup();
    }
  });
});
