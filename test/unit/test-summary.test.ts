/**
 * scripts/test.sh's closing line (scripts/test-summary.mjs) over real Vitest reports: a throwaway project whose suite
 * fails outside any test, as a framework suite's beforeAll did when `astro dev` did not answer in time (issue 33, item
 * 11: Vitest said success: false, the line said "0 failed"). Vitest runs as a child process on its own files.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeProject } from '../helpers/project.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const VITEST = join(ROOT, 'node_modules/.bin/vitest');
const SUMMARY = join(ROOT, 'scripts/test-summary.mjs');
/** The child runs as from a shell: without this run's own Vitest variables. */
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== 'NODE_ENV'));

const project = makeProject({
  'ok.test.js': "it('passes', () => {});\nit.skip('is skipped', () => {});\n",
  'server.test.js': `describe('a framework app', () => {
  beforeAll(() => { throw new Error('astro dev did not answer within 30 s'); });
  it('answers', () => {});
});
describe('the rest', () => { it('passes', () => {}); });
`,
  'broken.test.js': "throw new Error('cannot be imported');\n",
  'failing.test.js': "it('fails', () => { expect(1).toBe(2); });\n",
  // A rejection nobody awaits, in a test that passes: Vitest reports it as an unhandled error and exits 1.
  'unhandled.test.js': "it('passes, leaving a rejection behind', () => { Promise.reject(new Error('nobody awaited this')); });\n",
});
const REPORTER = join(ROOT, 'scripts/unhandled-errors-reporter.mjs');
afterAll(() => project.cleanup());

/** Runs Vitest on some of the project's files, then the summary over its report, as scripts/test.sh does. */
function runAndSummarise(files: string[], reporters = ['json', REPORTER]) {
  const report = join(project.dir, `report-${files.join('-')}-${reporters.length}.json`);
  const args = ['run', ...files, '--root', project.dir, '--globals', ...reporters.map((r) => `--reporter=${r}`), `--outputFile.json=${report}`];
  const vitest = spawnSync(VITEST, args, { cwd: project.dir, env, encoding: 'utf8' });
  const summary = spawnSync(process.execPath, [SUMMARY, report, String(vitest.status)], { cwd: project.dir, env, encoding: 'utf8' });
  return { vitest: vitest.status, code: summary.status, line: summary.stdout.trim() };
}

describe('the summary line and exit status', () => {
  it('counts a suite whose beforeAll failed, with no failed test, as a failure and exits 1', () => {
    const run = runAndSummarise(['ok.test.js', 'server.test.js']);
    expect(run.vitest).not.toBe(0);
    expect(run.line).toBe('Tests: 2 passed, 1 failed, 2 skipped (failed outside any test: server.test.js)');
    expect(run.code).toBe(1);
  }, 120_000);

  it('counts a file that cannot be imported, and adds failed tests to them', () => {
    const run = runAndSummarise(['broken.test.js', 'failing.test.js', 'ok.test.js']);
    expect(run.line).toBe('Tests: 1 passed, 2 failed, 1 skipped (failed outside any test: broken.test.js)');
    expect(run.code).toBe(1);
  }, 120_000);

  it('says 0 failed and exits 0 when everything passed', () => {
    const run = runAndSummarise(['ok.test.js']);
    expect(run.line).toBe('Tests: 1 passed, 0 failed, 1 skipped');
    expect(run.code).toBe(0);
  }, 120_000);

  it('is what scripts/test.sh ends with, given the report and Vitest\'s status', () => {
    const script = readFileSync(join(ROOT, 'scripts/test.sh'), 'utf8').trim().split('\n');
    expect(script.at(-1)).toBe('node scripts/test-summary.mjs "$results" "$status"');
    // Vitest runs with the reporter that writes the unhandled errors beside the report, and old ones are removed first.
    expect(script).toContain('npm test -- --reporter=default --reporter=json --reporter=./scripts/unhandled-errors-reporter.mjs --outputFile.json="$results" || status=$?');
    expect(script).toContain('rm -f "$results" "$results.unhandled.json"');
  });

  // Issue 48, item 5: Vitest's JSON report says success: true and counts no failure when the only errors are outside
  // any test; the line said "0 failed" (the exit status was right).
  it('counts each unhandled error as a failure and names it', () => {
    const run = runAndSummarise(['unhandled.test.js', 'ok.test.js']);
    expect(run.vitest).toBe(1);
    const report = JSON.parse(readFileSync(join(project.dir, 'report-unhandled.test.js-ok.test.js-2.json'), 'utf8')) as { success: boolean; numFailedTests: number };
    expect(report).toMatchObject({ success: true, numFailedTests: 0 });
    expect(run.line).toBe('Tests: 2 passed, 1 failed, 1 skipped (1 unhandled error outside any test: Error: nobody awaited this)');
    expect(run.code).toBe(1);
  }, 120_000);

  it('without the reporter, still counts a run Vitest failed with no failure in its report as one failure, and says so', () => {
    const run = runAndSummarise(['unhandled.test.js'], ['json']);
    expect(run.vitest).toBe(1);
    expect(run.line).toBe('Tests: 1 passed, 1 failed (Vitest exited 1 with no failure in its report: see its output above)');
    expect(run.code).toBe(1);
  }, 120_000);

  it('exits 1 and says so when there is no report (Vitest did not finish)', () => {
    const summary = spawnSync(process.execPath, [SUMMARY, join(project.dir, 'missing.json'), '1'], { encoding: 'utf8' });
    expect(summary.stdout).toMatch(/^Tests: no report \(.*missing\.json\): vitest did not finish/);
    expect(summary.status).toBe(1);
  });
});
