/**
 * The README's test command in anyone's CI (issue 55, item 8): every CI sets `CI`, and a fork's run has no
 * `../shared` beside its checkout. A test that needs that folder is skipped under `CI=true` and fails only in the
 * project's own CI, which `.ci/run` marks with `SITE_SEARCH_CI=1`. Vitest runs as a child process on the SPEC.md test
 * of unit/package.test.ts, pointed at a SPEC.md that does not exist.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = new URL('../..', import.meta.url).pathname;
const VITEST = join(ROOT, 'node_modules/.bin/vitest');
/** The child runs as from a CI's shell: without this run's own Vitest variables, nor the project's CI mark. */
const ciEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== 'NODE_ENV' && name !== 'SITE_SEARCH_CI'));
const MISSING = join(ROOT, 'no-such-folder/SPEC.md');
const out = mkdtempSync(join(tmpdir(), 'site-search-project-ci-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** Runs only the test that reads SPEC.md, under `CI=true` plus `extra`; its exit status and Vitest's JSON report. */
function runSpecTest(name: string, extra: Record<string, string>) {
  const file = join(out, `${name}.json`);
  const args = ['run', 'test/unit/package.test.ts', '--project', 'suite', '-t', "every name of SPEC.md's table", '--reporter=json', `--outputFile.json=${file}`];
  const run = spawnSync(VITEST, args, { cwd: ROOT, env: { ...ciEnv, CI: 'true', SPEC_MD: MISSING, ...extra }, encoding: 'utf8' });
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const tests: { title: string; status: string; failureMessages: string[] }[] = report.testResults.flatMap((f: { assertionResults: unknown[] }) => f.assertionResults);
  return { status: run.status, test: tests.find((t) => t.title.includes("every name of SPEC.md's table"))! };
}

describe('a test that needs ../shared', () => {
  it('is skipped under CI=true alone (any CI, a fork), and the run passes', () => {
    const { status, test } = runSpecTest('any-ci', {});
    expect(test.status).toBe('skipped');
    expect(status).toBe(0);
  }, 120_000);

  it("fails in the project's CI (SITE_SEARCH_CI=1), naming the missing file", () => {
    const { status, test } = runSpecTest('project-ci', { SITE_SEARCH_CI: '1' });
    expect(test.status).toBe('failed');
    expect(test.failureMessages.join('\n')).toContain(`${MISSING} is absent`);
    expect(status).not.toBe(0);
  }, 120_000);

  it('.ci/run, the project CI entry, sets SITE_SEARCH_CI=1', () => {
    expect(readFileSync(join(ROOT, '.ci/run'), 'utf8')).toMatch(/^export [^\n]*\bSITE_SEARCH_CI=1\b/m);
  });
});
