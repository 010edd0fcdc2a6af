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
    projects: [
      { extends: true, test: { name: 'suite', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, LOAD], sequence: { groupOrder: 1 } } },
      { extends: true, test: { name: 'load', include: [LOAD], fileParallelism: false, sequence: { groupOrder: 2 } } },
    ],
  },
});
