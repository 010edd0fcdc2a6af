import { configDefaults, defineConfig } from 'vitest/config';

/** The load test measures the server under its own load: it runs after the rest, never beside another test file. */
const LOAD = 'test/reliability/load.test.ts';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    projects: [
      { extends: true, test: { name: 'suite', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, LOAD], sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'load', include: [LOAD], fileParallelism: false, sequence: { groupOrder: 1 } } },
    ],
  },
});
