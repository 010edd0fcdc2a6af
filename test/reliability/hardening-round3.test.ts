/**
 * Hardening round 3, the indexer's side (issue 34; docs/security.md lists every case): hostile frontmatter, symbolic
 * links out of the content folder and terminal controls, each through the real CLI as a child process over real files
 * (real YAML alias bombs, real symbolic links) into node:sqlite.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlite } from '../../adapters/node.js';
import { makeProject } from '../helpers/project.js';

const CLI = new URL('../../dist/cli.js', import.meta.url).pathname;
const run = promisify(execFile);
const env = { ...process.env, CI: 'true' };

async function cli(args: string[], cwd: string) {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { cwd, env, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const { code, stdout, stderr } = e as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

/**
 * A YAML alias bomb: 9 levels of lists, each holding the level below 9 times (852 bytes of YAML). The parser
 * shares the lists, so it is small in memory; `String()` of the top expands it to 9¹⁰ words, which is what a warning
 * once did (`Invalid string length` after 8.7 s and 1.7 GB).
 */
function aliasBomb(key: string, levels = 9): string {
  const lines = [`${key}0: &${key}0 [${Array(9).fill('"lol"').join(', ')}]`];
  for (let i = 1; i < levels; i++) lines.push(`${key}${i}: &${key}${i} [${Array(9).fill(`*${key}${i - 1}`).join(', ')}]`);
  return `${lines.join('\n')}\n${key}: [${Array(9).fill(`*${key}${levels - 1}`).join(', ')}]`;
}

const FIELDS = ['title', 'description', 'tags', 'slug', 'emoji', 'date', 'updated', 'draft', 'search'];
const long = 'x'.repeat(100_000);

const project = makeProject({
  'search.config.json': JSON.stringify({ database: 'round3', sources: [{ dir: 'content', type: 'doc', url: '/docs/:slug/' }] }),
  'content/bomb-date.md': `---\ntitle: Date bomb\n${aliasBomb('date')}\n---\nThe quokka page keeps its body.\n`,
  // Every field the indexer reads, each holding a bomb of its own.
  'content/bomb-fields.md': `---\n${FIELDS.map((f) => aliasBomb(f, 8)).join('\n')}\n---\n# Wombat burrows\n\nThe wombat page keeps its body.\n`,
  // Values far too long to repeat: a date and a slug that both draw a warning.
  'content/long-values.md': `---\ntitle: Long values\ndate: "${long}"\nslug: "\\\\${long}"\n---\nThe numbat page.\n`,
  'content/long-tag.mdx': `# Long tag\n\n<A${long} never closed\n`,
});
afterAll(() => project.cleanup());

/** What the CLI's `index` said in a project, and the titles it indexed. */
async function indexIn(dir: string) {
  const result = await cli(['index'], dir);
  const path = join(dir, '.site-search/search.db');
  // A run that failed wrote no index.
  if (!existsSync(path)) return { ...result, titles: [] };
  const db = openSqlite(path);
  try {
    return { ...result, titles: (await db.prepare('SELECT title FROM search_index ORDER BY title').all<{ title: string }>()).results.map((r) => r.title) };
  } finally {
    db.close();
  }
}

describe('4. YAML alias bombs and long values in frontmatter', () => {
  let indexed: Awaited<ReturnType<typeof indexIn>>;
  beforeAll(async () => {
    indexed = await indexIn(project.dir);
  }, 120_000);

  it('finishes the run, indexes the pages, and never stringifies a value into a warning', async () => {
    expect(indexed.code, indexed.stderr.slice(0, 2_000)).toBe(0);
    expect(indexed.stderr).not.toContain('Invalid string length');
    expect(indexed.stderr).toContain('warning: content/bomb-date.md: frontmatter date: a list of 9 items is not a date (use YYYY-MM-DD); it is ignored');
    expect(indexed.stderr).toContain('warning: content/bomb-fields.md: frontmatter date: a list of 9 items is not a date');
    expect(indexed.stderr).not.toContain('lol');
    expect(indexed.titles).toEqual(expect.arrayContaining(['Date bomb', 'Wombat burrows', 'Long values']));
  });

  it('repeats at most 200 characters of a value, and says how long it was', () => {
    const lines = indexed.stderr.split('\n').filter((line) => line.includes('content/long-values.md'));
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) expect(line.length).toBeLessThan(1_000);
    expect(indexed.stderr).toContain(`frontmatter date: "${'x'.repeat(200)}… (100,000 characters)" is not a date`);
    const tag = indexed.stderr.split('\n').find((line) => line.includes('content/long-tag.mdx'))!;
    expect(tag.length).toBeLessThan(1_000);
    // The inline pass reads a long run in pieces of a few thousand characters: the name is as long as its piece.
    expect(tag).toMatch(/unclosed JSX tag <Ax{199}… \([\d,]+ characters\)>$/);
    expect(indexed.stderr).toContain(`frontmatter slug "\\${'x'.repeat(199)}… (100,001 characters)" is not a plain path; using "${'x'.repeat(200)}… (100,000 characters)"`);
  });
});

describe('5. symbolic links out of the content folder', () => {
  // What a contributor's pull request could link in.
  const links = makeProject({
    'search.config.json': JSON.stringify({ database: 'round3', sources: [{ dir: 'content', type: 'doc', url: '/docs/:slug/' }] }),
    'secret/.env': 'API_TOKEN=hunter2-supersecret\n',
    'elsewhere/leaked.md': '# Leaked\n\nA page from outside the content folder, about platypus eggs.\n',
    'content/good.md': '# Good\n\nA page about echidnas.\n',
    'content/Templates/template.md': '# Template\n\nA skipped template about bilbies.\n',
  });
  symlinkSync('/etc/passwd', join(links.dir, 'content/passwd.md'));
  symlinkSync('../secret/.env', join(links.dir, 'content/config.md'));
  symlinkSync('../elsewhere', join(links.dir, 'content/linked'));
  // A link that stays inside the content folder (into a folder the glob skips) is indexed as before.
  symlinkSync('Templates/template.md', join(links.dir, 'content/inside.md'));
  afterAll(() => links.cleanup());
  let indexed: Awaited<ReturnType<typeof indexIn>>;
  beforeAll(async () => {
    indexed = await indexIn(links.dir);
  }, 120_000);

  it('skips each, with a warning naming the file, where it leads and the option', async () => {
    // Paths under the folder the command runs in are printed relative to it.
    const warning = (file: string, target: string) =>
      `warning: content/${file}: is a symbolic link to ${target}, outside content (set followLinksOutside: true in your search options to index files linked from elsewhere); skipped\n`;
    expect(indexed.stderr).toContain(warning('passwd.md', '/etc/passwd'));
    expect(indexed.stderr).toContain(warning('linked/leaked.md', 'elsewhere/leaked.md'));
    expect(indexed.code).toBe(0);
    expect(indexed.titles).toEqual(['Good', 'Template']);
    const db = openSqlite(join(links.dir, '.site-search/search.db'));
    try {
      const leaked = await db.prepare("SELECT count(*) AS n FROM search_index WHERE search_index MATCH 'root OR hunter2 OR platypus'").all<{ n: number }>();
      expect(leaked.results[0]!.n).toBe(0);
    } finally {
      db.close();
    }
  });

  it('skips a .env linked in under a page’s name', () => {
    // content/config.md → ../secret/.env: the glob matches the link's name, so the target's name does not matter.
    expect(indexed.stderr).toContain('warning: content/config.md: is a symbolic link to secret/.env, outside content (');
  });

  it('indexes them when followLinksOutside is true', async () => {
    const allowed = makeProject({
      'search.config.json': JSON.stringify({ database: 'round3', followLinksOutside: true, sources: [{ dir: 'content', type: 'doc', url: '/docs/:slug/' }] }),
      'elsewhere/leaked.md': '# Leaked\n\nA page from outside the content folder, about platypus eggs.\n',
    });
    try {
      mkdirSync(join(allowed.dir, 'content'));
      symlinkSync('../elsewhere', join(allowed.dir, 'content/linked'));
      const result = await cli(['index'], allowed.dir);
      expect(result.code).toBe(0);
      expect(result.stderr).not.toContain('outside');
      expect(result.stdout).toMatch(/1 pages: 1 added/);
    } finally {
      allowed.cleanup();
    }
  });
});

describe('6. C1 and bidirectional controls in terminal output', () => {
  // U+009B (a one-character CSI on some terminals) and U+202E (right-to-left override), in a title, a body and a date.
  const controls = makeProject({
    'search.config.json': JSON.stringify({ database: 'round3', sources: [{ dir: 'content', type: 'doc', url: '/docs/:slug/' }] }),
    'content/trojan.md': '---\ntitle: "Invoice \\u202Efdp.exe \\u009B31m red"\ndate: "\\u202E2024-01-01"\n---\nThe zorbified page \u202Esays otherwise\u2066 and \u009B2J clears.\n',
  });
  afterAll(() => controls.cleanup());
  const RAW = /[\u0080-\u009f\u202a-\u202e\u2066-\u2069]/;

  it('escapes them in warnings, in query and in query --json, which still parses to the stored text', async () => {
    const indexed = await indexIn(controls.dir);
    expect(indexed.code).toBe(0);
    expect(indexed.stderr + indexed.stdout).not.toMatch(RAW);
    expect(indexed.stderr).toContain('warning: content/trojan.md: frontmatter date: "\\u202e2024-01-01" is not a date');

    const text = await cli(['query', 'zorbified'], controls.dir);
    expect(text.code).toBe(0);
    expect(text.stdout).not.toMatch(RAW);
    expect(text.stdout).toContain('Invoice \\u202efdp.exe');

    const json = await cli(['query', 'zorbified', '--json'], controls.dir);
    expect(json.code).toBe(0);
    expect(json.stdout).not.toMatch(RAW);
    expect(json.stdout).toContain('\\u202e');
    const { results } = JSON.parse(json.stdout) as { results: { title: string; snippet: string }[] };
    // Stored: bidirectional controls kept (right-to-left text uses them), C1 controls removed (docs/decisions.md).
    expect(results.map((r) => r.title)).toEqual(['Invoice \u202Efdp.exe 31m red']);
    expect(results[0]!.snippet).toContain('\u202Esays otherwise\u2066');
    expect(results[0]!.snippet).not.toContain('\u009B');
  });
});

