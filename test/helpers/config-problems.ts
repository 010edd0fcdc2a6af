import { expect } from 'vitest';
import { resolveConfig, SiteSearchConfigError, type SearchOptions } from '../../src/index.js';

/** The problems `resolveConfig` reports for `options`, checking it throws the config error with its prefixed message. */
export function configProblems(options: unknown): string[] {
  try {
    resolveConfig(options as SearchOptions);
  } catch (e) {
    expect(e).toBeInstanceOf(SiteSearchConfigError);
    expect((e as Error).message).toMatch(/^\[site-search\] Invalid search options:/);
    return (e as SiteSearchConfigError).problems;
  }
  throw new Error('resolveConfig did not throw');
}
