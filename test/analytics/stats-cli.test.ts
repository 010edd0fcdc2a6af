/** `site-search stats` as a user runs it (dist/cli.js): its errors are one line naming the file and the fix. */
import { execFile } from 'node:child_process';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { writeOptionsFile } from '../../adapters/starlight/index.js';
import { openAnalytics } from '../../src/analytics/open.js';
import { SqlAnalyticsStore } from '../../src/analytics/sql-store.js';
import { makeProject } from '../helpers/project.js';

const CLI = new URL('../../dist/cli.js', import.meta.url).pathname;
const config = { database: 'stats-cli', sources: [{ dir: 'docs', type: 'doc', url: '/docs/:slug/' }], analytics: true };
const site = makeProject({ 'search.config.json': JSON.stringify(config), 'docs/a.md': '# A\n\nText.\n' });
afterAll(() => site.cleanup());

async function stats(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return statsIn(site.dir, ...args);
}

async function statsIn(cwd: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI, 'stats', ...args], { cwd });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const { code, stdout, stderr } = e as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

describe('site-search stats', () => {
  it('without an analytics file: exit 1, one line naming the file and the fix', async () => {
    const { code, stderr } = await stats();
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^\[site-search\] No analytics file at .*\.site-search\/analytics\.db: set analytics: true in the search options/);
  });

  it('refuses --days that is not a whole number from 1', async () => {
    const { code, stderr } = await stats('--days', '0');
    expect(code).toBe(1);
    expect(stderr.trim()).toBe('[site-search] --days must be a whole number of days from 1, not "0".');
  });

  it('prints the report, with control characters in queries escaped', async () => {
    const db = openAnalytics(config, { cwd: site.dir });
    const day = new Date().toISOString().slice(0, 10);
    const row = { day, site: '', source: 'endpoint' as const, type: '', searches: 2, zero: 2, results: 0, match: 'none' as const, suggestion: '' };
    await new SqlAnalyticsStore(db, { cap: 1000, retentionDays: 90 }).write({ searches: [{ ...row, query: 'evil \x1b[31mred' }, { ...row, query: 'kubernetes', searches: 3, zero: 3 }], clicks: [] }, day);
    db.close();
    const { code, stdout } = await stats();
    expect(code).toBe(0);
    expect(stdout).not.toContain('\x1b');
    expect(stdout).toContain('"evil \\x1b[31mred"');
    expect(stdout).toMatch(/searches 5 · no results 5 \(100\.0%\)/);
    expect(stdout).toMatch(/Queries with no results\n\s+3\s+"kubernetes"/);
  });

  it('with analytics on and nothing written yet, says the counts are held in memory and when they are written', async () => {
    const empty = makeProject({ 'search.config.json': JSON.stringify(config), 'docs/a.md': '# A\n' });
    try {
      // The file exists (a server opened it) but no count has reached it.
      new DatabaseSync(join(empty.dir, 'empty.db')).close();
      const { code, stderr } = await statsIn(empty.dir, '--from', 'empty.db');
      expect(code).toBe(1);
      expect(stderr.trim().split('\n')).toHaveLength(1);
      expect(stderr).toMatch(/No analytics written to .*empty\.db yet \(analytics is on\)\. Searches of the last 300 s may not be here yet: a Node server writes its first search at once, then what it counted every 300 s \(flushSeconds\), and all it holds when it stops\./);
      expect(stderr).not.toMatch(/set analytics: true/);
    } finally {
      empty.cleanup();
    }
  });

  it('the report says how recent searches may still be in the server\'s memory', async () => {
    const { code, stdout } = await stats();
    expect(code).toBe(0);
    expect(stdout).toMatch(/Searches of the last 300 s may not be here yet/);
  });

  // Issue 55, item 6: with flushSeconds: 0 the report said "Searches of the last 0 s may not be here yet".
  it('with flushSeconds: 0, the report says every search is written as it is answered', async () => {
    const options = { ...config, analytics: { flushSeconds: 0 } };
    const zero = makeProject({ 'search.config.json': JSON.stringify(options), 'docs/a.md': '# A\n' });
    try {
      const db = openAnalytics(options, { cwd: zero.dir });
      const day = new Date().toISOString().slice(0, 10);
      const row = { day, site: '', source: 'endpoint' as const, type: '', query: 'otters', searches: 1, zero: 0, results: 2, match: 'all' as const, suggestion: '' };
      await new SqlAnalyticsStore(db, { cap: 1000, retentionDays: 90 }).write({ searches: [row], clicks: [] }, day);
      db.close();
      const { code, stdout } = await statsIn(zero.dir);
      expect(code).toBe(0);
      expect(stdout).toContain('Every search answered is here: with flushSeconds: 0 each is written as it is answered.');
      expect(stdout).not.toMatch(/last 0 s/);
    } finally {
      zero.cleanup();
    }
  });

  it('finds the analytics file of a Starlight site with the documented --config .site-search/options.json', async () => {
    const starlight = makeProject({ 'src/content/docs/a.md': '# A\n' });
    try {
      const options = { database: 'starlight-stats', sources: [{ dir: 'src/content/docs', type: 'doc', url: '/:slug/' }], analytics: true };
      writeOptionsFile(starlight.dir, options);
      // Where the integration's server writes: the analytics file relative to the project's root.
      const db = openAnalytics(options, { cwd: starlight.dir });
      const day = new Date().toISOString().slice(0, 10);
      const row = { day, site: '', source: 'endpoint' as const, type: '', query: 'starlight query', searches: 4, zero: 0, results: 3, match: 'all' as const, suggestion: '' };
      await new SqlAnalyticsStore(db, { cap: 1000, retentionDays: 90 }).write({ searches: [row], clicks: [] }, day);
      db.close();
      const { code, stdout, stderr } = await statsIn(starlight.dir, '--config', '.site-search/options.json');
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(stdout).toMatch(/\s4\s+"starlight query"/);
    } finally {
      starlight.cleanup();
    }
  });
});
