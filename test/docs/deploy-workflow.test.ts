/**
 * docs/deploy.md (issue 33, item 9): the GitHub Actions workflow users copy is parsed as YAML (js-yaml, which the
 * indexer's frontmatter parser gray-matter already installs) and checked: the triggers filter by path, one run at a
 * time per pull request and for production, the GitHub token reads only, each job builds before it deploys and
 * deploys before it indexes, previews write to the preview database under a site of their own and skip forks, and
 * every `site-search` command in it is one the CLI's own argument parser accepts; the Cloudflare token reaches only
 * the steps that run wrangler. The options file the page shows is loaded and resolved as the CLI would, with and
 * without the preview's environment variables, and its wrangler.jsonc binds both databases as `site-search check`
 * reads it.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../src/cli/args.js';
import { checkDatabaseConfig } from '../../src/indexer/wrangler.js';
import { resolveConfig } from '../../src/options/config.js';
import type { SearchOptions } from '../../src/options/options.js';

const root = new URL('../..', import.meta.url).pathname;
const page = readFileSync(join(root, 'docs/deploy.md'), 'utf8');
const yaml = createRequire(import.meta.url)('js-yaml') as { load(text: string): unknown };

/** The page's code block whose first line starts with `first`. */
function block(first: string): string {
  for (const [, body] of page.matchAll(/^```\w*\n([\s\S]*?)^```$/gm)) if (body!.split('\n')[0]!.startsWith(first)) return body!;
  throw new Error(`docs/deploy.md has no code block starting with ${first}`);
}

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Job {
  if?: string;
  environment?: string;
  env?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  on: { push: { branches: string[]; paths: string[] }; pull_request: { types: string[]; paths: string[] } };
  permissions: Record<string, string>;
  concurrency: { group: string; 'cancel-in-progress': boolean };
  jobs: Record<string, Job>;
}

const workflow = yaml.load(block('# .github/workflows/deploy.yml')) as Workflow;
const runs = (job: string) => workflow.jobs[job]!.steps.flatMap((s) => (s.run ? [s.run.replace(/\s+/g, ' ').trim()] : []));
/** Where in the job the first command starting with `prefix` runs. */
const at = (job: string, prefix: string) => runs(job).findIndex((r) => r.startsWith(prefix));

describe('docs/deploy.md: the GitHub Actions workflow', () => {
  it('runs on content and code changes only, on main and on pull requests', () => {
    for (const trigger of [workflow.on.push, workflow.on.pull_request]) {
      expect(trigger.paths).toEqual(expect.arrayContaining(['src/**', 'search.config.mjs', 'wrangler.jsonc', 'package-lock.json']));
      expect(trigger.paths).not.toContain('**');
    }
    expect(workflow.on.push.branches).toEqual(['main']);
    expect(workflow.on.pull_request.types).toEqual(expect.arrayContaining(['opened', 'synchronize', 'closed']));
  });

  it('one run at a time per pull request and for production, never cut off halfway; the GitHub token only reads', () => {
    expect(workflow.concurrency.group).toBe("deploy-${{ github.event.pull_request.number || 'production' }}");
    expect(workflow.concurrency['cancel-in-progress']).toBe(false);
    expect(workflow.permissions).toEqual({ contents: 'read' });
  });

  it('gives the Cloudflare token only to the steps that run wrangler (not to npm ci or the build)', () => {
    const token = { CLOUDFLARE_API_TOKEN: '${{ secrets.CLOUDFLARE_API_TOKEN }}', CLOUDFLARE_ACCOUNT_ID: '${{ secrets.CLOUDFLARE_ACCOUNT_ID }}' };
    for (const [name, job] of Object.entries(workflow.jobs)) {
      expect(JSON.stringify(job.env ?? {}), name).not.toContain('secrets.');
      for (const step of job.steps) {
        const wrangler = /^npx (wrangler|site-search index --d1) /.test(step.run ?? '');
        if (wrangler) expect(step.env, step.run).toMatchObject(token);
        else expect(JSON.stringify(step), step.run ?? step.uses).not.toContain('secrets.');
      }
    }
  });

  it('production: check, build, deploy, then index, in one job', () => {
    const job = workflow.jobs.production!;
    expect(job.if).toBe("github.event_name == 'push'");
    const order = ['npm ci', 'npx site-search check', 'npx astro build', 'npx wrangler deploy', 'npx site-search index --d1 remote'].map((c) => at('production', c));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('previews: their own database and site, the same order, forks skipped, and the rows removed when the pull request closes', () => {
    const preview = workflow.jobs.preview!;
    const cleanup = workflow.jobs['preview-cleanup']!;
    for (const job of [preview, cleanup]) {
      expect(job.if).toContain("github.event_name == 'pull_request'");
      expect(job.if).toContain('github.event.pull_request.head.repo.full_name == github.repository');
      expect(job.environment).toBe('preview');
    }
    expect(preview.if).toContain("github.event.action != 'closed'");
    expect(cleanup.if).toContain("github.event.action == 'closed'");
    expect(preview.env).toEqual({ SEARCH_DATABASE: 'my-docs-search-preview', SEARCH_SITE: 'pr-${{ github.event.pull_request.number }}' });
    const order = ['npx astro build', 'npx wrangler versions upload --env preview', 'npx site-search index --d1 remote -- --env preview'].map((c) => at('preview', c));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // Every table a site's rows live in (the same list a whole push clears).
    const step = cleanup.steps.find((st) => st.run?.startsWith('npx wrangler d1 execute my-docs-search-preview --remote --env preview'))!;
    expect(step.env?.SITE).toBe('pr-${{ github.event.pull_request.number }}');
    const remove = step.run!.replace(/\s+/g, ' ');
    for (const table of ['search_index', 'search_titles', 'search_docs', 'search_sections', 'search_vocab', 'search_vocab_packed', 'search_hashes']) {
      expect(remove).toContain(`DELETE FROM ${table} WHERE site = '$SITE'`);
    }
    // Searches keep the vocabulary in memory by its generation: a new one makes them read it again.
    expect(remove).toContain("UPDATE search_meta SET value = lower(hex(randomblob(8))) WHERE key = 'vocab_generation'");
  });

  it('every site-search command in it is one the CLI accepts', () => {
    const commands = Object.keys(workflow.jobs).flatMap(runs).filter((r) => r.startsWith('npx site-search '));
    expect(commands.length).toBeGreaterThanOrEqual(4);
    for (const command of commands) {
      const parsed = parseCommandLine(command.split(' ').slice(2));
      expect(parsed.command, command).toBeDefined();
      if (parsed.flags.d1 !== undefined) expect(parsed.flags.d1).toBe('remote');
    }
    // The parser is strict: a misspelt option or command would fail here.
    expect(() => parseCommandLine(['index', '--d1', 'remote', '--ful'])).toThrow(/Unknown option '--ful'/);
    expect(() => parseCommandLine(['indx'])).toThrow(/\[site-search\] Unknown command "indx"/);
    expect(() => parseCommandLine(['index', '--d1', 'production'])).toThrow(/--d1 must be "local" or "remote"/);
  });
});

describe('docs/deploy.md: the options file', () => {
  // Inside the repository, so that `import 'site-search'` resolves to this package (its built dist/), as in a project.
  const dir = join(root, 'test/docs/.deploy-check');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the database and the site from the environment, production by default; the wrangler config binds both', async () => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'wrangler.jsonc'), block('// wrangler.jsonc'));
    const load = async (name: string, env: Record<string, string | undefined>) => {
      const saved = { SEARCH_DATABASE: process.env.SEARCH_DATABASE, SEARCH_SITE: process.env.SEARCH_SITE };
      Object.assign(process.env, env);
      for (const [k, v] of Object.entries(env)) if (v === undefined) delete process.env[k];
      try {
        writeFileSync(join(dir, name), block('// search.config.mjs'));
        return resolveConfig((await import(pathToFileURL(join(dir, name)).href)).default as SearchOptions);
      } finally {
        for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    };
    const production = await load('production.mjs', { SEARCH_DATABASE: undefined, SEARCH_SITE: undefined });
    expect([production.database, production.site]).toEqual(['my-docs-search', '']);
    const preview = await load('preview.mjs', { SEARCH_DATABASE: 'my-docs-search-preview', SEARCH_SITE: 'pr-12' });
    expect([preview.database, preview.site]).toEqual(['my-docs-search-preview', 'pr-12']);
    // What `site-search check` runs in the workflow: production at the top level, the preview in env.preview.
    expect(checkDatabaseConfig(production, dir)).toMatchObject({ ok: true, environment: undefined });
    expect(checkDatabaseConfig(preview, dir)).toMatchObject({ ok: true, environment: 'preview' });
  });
});
