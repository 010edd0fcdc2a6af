/** The `site-search` bin, run as a user runs it: a child process in a project folder. */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { startDevServer } from '../helpers/dev-server.js';
import { makeProject } from '../helpers/project.js';

const CLI = new URL('../../dist/cli.js', import.meta.url).pathname;
const execFileAsync = promisify(execFile);

async function cli(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, CI: 'true' } });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

const project = makeProject({
  'search.config.ts': `const options: { database: string; sources: { dir: string; type: string; url: string }[]; maxContentLength: number } = {
    database: 'cli-search',
    maxContentLength: 100,
    sources: [{ dir: 'content', type: 'doc', url: '/docs/:slug' }, { dir: 'blog', type: 'post', url: '/blog/:slug' }],
  };
  export default options;\n`,
  'content/intro.md': '---\ntitle: Introduction\ntags: [birds]\n---\nWelcome to the <b>documentation</b> of the penguin tracker.',
  'content/long.md': `# Long page\n\n${'lengthy words '.repeat(20)}`,
  'content/broken.md': '# Broken\n\nText\n\n```js\nconst unclosed = true;\n',
  'blog/draft.md': '---\ntitle: Secret\ndraft: true\n---\npenguin plans',
  'blog/hello.md': '---\ntitle: Hello penguins\ndate: 2026-01-02\ntags: [birds, news]\n---\nFirst post about penguins.',
});
afterAll(() => project.cleanup());

describe('site-search index', () => {
  it('prints a summary: documents, skipped drafts, truncated bodies, warnings, time', async () => {
    const r = await cli(['index'], project.dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^\[site-search\] 4 pages: 4 added, 0 changed, 0 removed, 0 unchanged; \d+ rows written → .*\.site-search\/search\.db in \d+\.\d\d s \(1 drafts skipped, 1 bodies truncated, 1 warnings\)\n$/,
    );
    expect(r.stderr).toContain('content/broken.md:5: unclosed code fence');
  });

  it('writes SQL only with --out', async () => {
    const sqlFiles = () => (readdirSync(project.dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.sql')).sort();
    // Issue 48, item 6: only the positive case was tested. Without --out, a push writes the SQLite file and no SQL.
    const plain = await cli(['index'], project.dir);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/→ .*\.site-search\/search\.db/);
    expect(sqlFiles()).toEqual([]);
    const r = await cli(['index', '--out', 'out/search.sql'], project.dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/→ .*out\/search\.sql/);
    expect(sqlFiles()).toEqual(['out/search.sql']);
    expect(readFileSync(join(project.dir, 'out/search.sql'), 'utf8')).toContain('INSERT INTO search_index');
  });
});

describe('site-search query', () => {
  it('searches the local index, as JSON with --json', async () => {
    await cli(['index'], project.dir);
    const r = await cli(['query', 'penguin', '--json'], project.dir);
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body.results.map((x: { title: string }) => x.title).sort()).toEqual(['Hello penguins', 'Introduction']);
    const posts = JSON.parse((await cli(['query', 'penguin', '--type', 'post', '--json'], project.dir)).stdout);
    expect(posts.results.map((x: { title: string }) => x.title)).toEqual(['Hello penguins']);
  });

  it('filters by tags and counts facets as the endpoint does (--tags, --facets)', async () => {
    const titles = async (...args: string[]) =>
      (JSON.parse((await cli(['query', 'penguin', ...args, '--json'], project.dir)).stdout).results as { title: string }[]).map((x) => x.title).sort();
    expect(await titles('--tags', 'news')).toEqual(['Hello penguins']);
    expect(await titles('--tags', 'birds')).toEqual(['Hello penguins', 'Introduction']);
    // Every tag is required, and a tag is matched whole.
    expect(await titles('--tags', 'birds,news')).toEqual(['Hello penguins']);
    expect(await titles('--tags', 'bird')).toEqual([]);
    const counted = JSON.parse((await cli(['query', 'penguin', '--facets', 'type,tags', '--json'], project.dir)).stdout);
    expect(counted.facets).toEqual({
      type: [{ value: 'doc', count: 1 }, { value: 'post', count: 1 }],
      tags: [{ value: 'birds', count: 2 }, { value: 'news', count: 1 }],
    });
    const readable = await cli(['query', 'penguin', '--facets', 'tags'], project.dir);
    expect(readable.stdout).toContain('tags: birds 2, news 1');
  });

  it('says what a misspelt query was corrected to, as the endpoint does', async () => {
    const json = JSON.parse((await cli(['query', 'Pengiuns', '--json'], project.dir)).stdout);
    expect(json.query).toBe('pengiuns');
    expect(json.suggestion).toBe('penguins');
    expect(json.results.map((x: { title: string }) => x.title)).toContain('Hello penguins');
    const r = await cli(['query', 'pengiuns', '--limit', '1'], project.dir);
    expect(r.stdout.split('\n')[0]).toBe('Showing results for "penguins".');
    expect(JSON.parse((await cli(['query', 'penguins', '--json'], project.dir)).stdout)).not.toHaveProperty('suggestion');
  });

  it('prints readable results without --json', async () => {
    const r = await cli(['query', 'penguins', '--limit', '1'], project.dir);
    expect(r.stdout).toMatch(/^1\. Hello penguins {2}\/blog\/hello {2}\(post, 2026-01-02, -[\d.e-]+\)\n {3}First post about \[penguins\]\.\n$/);
  });
});

describe('errors: one line with the fix, exit code 1, no stack trace unless --debug', () => {
  const oneLine = (r: { code: number; stderr: string }) => {
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^\[site-search\] /);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  };

  it('no config file', async () => {
    const empty = makeProject({});
    const r = await cli(['index'], empty.dir);
    oneLine(r);
    expect(r.stderr).toContain('No search.config.ts');
    expect(r.stderr).toContain('site-search dev ./content');
    empty.cleanup();
  });

  it('query before any index', async () => {
    const fresh = makeProject({ 'search.config.json': JSON.stringify({ database: 'x', sources: [{ dir: 'c', type: 'doc', url: '/:slug' }] }) });
    const r = await cli(['query', 'anything'], fresh.dir);
    oneLine(r);
    expect(r.stderr).toMatch(/No local index at .*search\.db\. Run "site-search index" first\./);
    fresh.cleanup();
  });

  it('loads search.config.ts in a "type": "commonjs" package (Node would parse it as CommonJS) and leaves no file behind', async () => {
    const cjs = makeProject({
      'package.json': JSON.stringify({ name: 'legacy-site', type: 'commonjs' }),
      'search.config.ts': "const url: string = '/:slug';\nexport default { database: 'x', sources: [{ dir: 'c', type: 'doc', url }] };\n",
      'c/a.md': '# A\n\nhello\n',
    });
    const r = await cli(['check'], cjs.dir);
    expect(r.stderr + r.stdout).toContain(`options OK (${cjs.dir}/search.config.ts): 1 source, type doc`);
    expect(readdirSync(cjs.dir).sort()).toEqual(['c', 'package.json', 'search.config.ts']);
    cjs.cleanup();
  });

  // Issue 33, item 6: create-next-app and C3 write a package.json without "type"; Node then printed
  // MODULE_TYPELESS_PACKAGE_JSON (a reparse warning) on every run that loaded an ES module config.
  it.each([
    ['search.config.ts', "import type { SearchOptions } from 'site-search';\nconst options: SearchOptions = { database: 'x', sources: [{ dir: 'c', type: 'doc', url: '/:slug' }] };\nexport default options;\n"],
    ['search.config.js', "export default { database: 'x', sources: [{ dir: 'c', type: 'doc', url: '/:slug' }] };\n"],
    ['search.config.js', "module.exports = { database: 'x', sources: [{ dir: 'c', type: 'doc', url: '/:slug' }] };\n"],
  ])('loads %s in a package.json without "type" with no warning: %j', async (name, source) => {
    const typeless = makeProject({
      'package.json': JSON.stringify({ name: 'my-app', version: '0.1.0', private: true, scripts: { dev: 'next dev' } }),
      [name]: source,
      'c/a.md': '# A\n\nhello otters\n',
    });
    try {
      const index = await cli(['index'], typeless.dir);
      expect(index.code, index.stderr).toBe(0);
      expect(index.stderr).not.toMatch(/warning|MODULE_TYPELESS_PACKAGE_JSON/i);
      const query = await cli(['query', 'otters'], typeless.dir);
      expect(query.stdout).toContain('A');
      expect(query.stderr).not.toMatch(/warning/i);
      expect(readdirSync(typeless.dir).sort()).toEqual(['.site-search', 'c', name, 'package.json'].sort());
    } finally {
      typeless.cleanup();
    }
  });

  it('a bad parameter, an unknown command, a missing content folder', async () => {
    const badType = await cli(['query', 'penguin', '--type', 'nope'], project.dir);
    oneLine(badType);
    expect(badType.stderr).toContain('Invalid type. One of: doc, post');
    const badFacets = await cli(['query', 'penguin', '--facets', 'authors'], project.dir);
    oneLine(badFacets);
    expect(badFacets.stderr).toContain('Invalid facets. Any of: type, tags');
    oneLine(await cli(['frobnicate'], project.dir));
    const missing = await cli(['index', './nowhere'], project.dir);
    oneLine(missing);
    expect(missing.stderr).toContain('sources[0].dir: nowhere is not a directory');
  });

  it('invalid options name the config file and every problem', async () => {
    const bad = makeProject({ 'search.config.json': JSON.stringify({ database: 'x', sources: [{ dir: 'c', type: 'doc', url: '/docs' }], maxLimt: 3 }) });
    const r = await cli(['check'], bad.dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Invalid search options in');
    expect(r.stderr).toContain('sources[0].url: must contain ":slug"');
    expect(r.stderr).toContain('maxLimt: unknown option (did you mean "maxLimit"?)');
    bad.cleanup();
  });

  it('--debug prints the stack', async () => {
    const r = await cli(['frobnicate', '--debug'], project.dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/\n\s+at /);
  });
});

describe('site-search check', () => {
  it('fails with the snippet when wrangler has no matching D1 entry, passes when it does', async () => {
    const r = await cli(['check'], project.dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('options OK');
    expect(r.stderr).toContain('"database_name": "cli-search"');
    const ok = makeProject({
      'search.config.json': JSON.stringify({ database: 'cli-search', sources: [{ dir: 'c', type: 'doc', url: '/:slug' }] }),
      'wrangler.toml': '[[d1_databases]]\nbinding = "SEARCH_DB"\ndatabase_name = "cli-search"\ndatabase_id = "x"\n',
      'c/a.md': '# A',
    });
    const passed = await cli(['check'], ok.dir);
    expect(passed.code).toBe(0);
    expect(passed.stdout).toContain('D1 database "cli-search" is bound as "SEARCH_DB"');
    expect(passed.stderr).toBe('');
    ok.cleanup();
  });

  it('names every source folder or file that does not exist and exits 1, as index does', async () => {
    const site = makeProject({
      'search.config.json': JSON.stringify({
        database: 'cli-search',
        sources: [
          { dir: 'src/content/docs', type: 'doc', url: '/docs/:slug' },
          { dir: 'src/content/blog', type: 'post', url: '/blog/:slug' },
          { files: ['about.md'], type: 'page', url: '/about' },
        ],
      }),
      'wrangler.toml': '[[d1_databases]]\nbinding = "SEARCH_DB"\ndatabase_name = "cli-search"\ndatabase_id = "x"\n',
      'src/content/docs/a.md': '# A',
    });
    const r = await cli(['check'], site.dir);
    expect(r.code).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toEqual([
      `[site-search] sources[1].dir: src/content/blog is not a directory (looked in ${site.dir}). Fix "dir" in your search options, or create the folder.`,
      `[site-search] sources[2].files: about.md does not exist (looked in ${site.dir}). Fix "files" in your search options.`,
    ]);
    const index = await cli(['index'], site.dir);
    expect(index.code).toBe(1);
    expect(index.stderr.trim().split('\n')).toEqual(lines);
    site.cleanup();
  });
});

describe('site-search dev (zero-config)', () => {
  it('indexes a folder, serves the page and endpoint, and re-indexes on change', async () => {
    const site = makeProject({ 'content/a.md': '# Alpha\n\nThe first page about otters.' });
    const { child, url } = await startDevServer(['./content', '--port', '0'], site.dir);
    try {
      const page = await fetch(`${url}/`);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(await page.text()).toContain('"/api/search"');
      const search = async (q: string) => ((await (await fetch(`${url}/api/search?q=${q}`)).json()) as { results: { title: string; url: string }[] }).results;
      expect(await search('otters')).toEqual([expect.objectContaining({ title: 'Alpha', url: `${url}/a` })]);
      // The result's URL opens: the dev server serves each indexed page's text at its path; anything else is a 404.
      const opened = await fetch(`${url}/a`);
      expect(opened.status).toBe(200);
      expect(opened.headers.get('content-type')).toContain('text/html');
      expect(await opened.text()).toMatch(/<h1>Alpha<\/h1>[\s\S]*The first page about otters\.[\s\S]*/);
      expect((await fetch(`${url}/not-a-page`)).status).toBe(404);

      site.write('content/b.md', '# Beta\n\nA new page about otters and beavers.');
      let titles: string[] = [];
      for (let i = 0; i < 60 && !titles.includes('Beta'); i++) {
        await new Promise((r) => setTimeout(r, 100));
        titles = (await search('beavers')).map((r) => r.title);
      }
      expect(titles).toEqual(['Beta']);
    } finally {
      child.kill('SIGTERM');
      site.cleanup();
    }
  }, 150_000); // above startDevServer's cap, so a slow start fails with the server's output


  it('prints a page\'s warning once, not again at each re-index (issue 45: the demo repeated one on every save)', async () => {
    const site = makeProject({ 'content/a.md': '# Alpha\n\nOtters.', 'content/broken.md': '# Broken\n\nText\n\n```js\nconst unclosed = true;\n' });
    const { child, url } = await startDevServer(['./content', '--port', '0'], site.dir);
    let later = '';
    child.stdout!.on('data', (d) => (later += d));
    child.stderr!.on('data', (d) => (later += d));
    try {
      for (const [i, word] of ['beavers', 'voles'].entries()) {
        site.write(`content/new-${i}.md`, `# New ${i}\n\nA page about ${word}.`);
        let found = 0;
        for (let t = 0; t < 60 && !found; t++) {
          await new Promise((r) => setTimeout(r, 100));
          found = ((await (await fetch(`${url}/api/search?q=${word}`)).json()) as { results: unknown[] }).results.length;
        }
        expect(found).toBe(1);
      }
      // Both re-indexes printed their summary, each counting the warning, and neither printed it again.
      await expect.poll(() => later.match(/\(0 drafts skipped, 0 bodies truncated, 1 warnings\)/g)?.length ?? 0).toBeGreaterThanOrEqual(2);
      expect(later).not.toContain('warning:');
    } finally {
      child.kill('SIGTERM');
      site.cleanup();
    }
  }, 150_000);
});

describe('paths', () => {
  it('resolves --sqlite and --out against the working directory, option paths against the config file', async () => {
    const site = makeProject({
      'site/search.config.json': JSON.stringify({ database: 'p', sqlitePath: 'data/index.db', sources: [{ dir: 'content', type: 'doc', url: '/:slug' }] }),
      'site/content/a.md': '# A\n\nalpha words',
    });
    const viaOption = await cli(['index', '--config', 'site/search.config.json'], site.dir);
    expect(viaOption.stdout).toContain(`→ ${site.dir}/site/data/index.db`);
    const viaFlag = await cli(['index', '--config', 'site/search.config.json', '--sqlite', 'here.db'], site.dir);
    expect(viaFlag.stdout).toContain(`→ ${site.dir}/here.db`);
    const sql = await cli(['index', '--config', 'site/search.config.json', '--out', 'push.sql'], site.dir);
    expect(sql.stdout).toContain(`→ ${site.dir}/push.sql`);
    const found = await cli(['query', 'alpha', '--config', 'site/search.config.json', '--sqlite', 'here.db', '--json'], site.dir);
    expect(JSON.parse(found.stdout).results).toHaveLength(1);
    site.cleanup();
  });
});
