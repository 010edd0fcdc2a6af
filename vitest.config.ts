import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The load test measures the server under its own load: it runs after the rest, never beside another test file. The
 * suite's group is 1, not the default 0: on a 2-core machine Vitest runs one file at a time, and puts a project of
 * group 0 with one worker in a group of its own that runs last, after the load test.
 */
const LOAD = 'test/reliability/load.test.ts';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // What expect.poll waits for is a page or server doing real work (a box's first search against a cold app server):
    // Vitest's default of 1 s failed a SvelteKit test on a loaded 2-core machine. A poll still fails when the value
    // never comes; it is only given the time the test's own timeout allows.
    expect: { poll: { timeout: 15_000 } },
    projects: [
      { extends: true, test: { name: 'suite', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, LOAD], sequence: { groupOrder: 1 } } },
      { extends: true, test: { name: 'load', include: [LOAD], fileParallelism: false, sequence: { groupOrder: 2 } } },
    ],
  },
});
