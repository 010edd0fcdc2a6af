import { describe, expect, it } from 'vitest';
import { resolveConfig, type SearchOptions } from '../../src/index.js';
import { configProblems as problems } from '../helpers/config-problems.js';

const minimal: SearchOptions = { database: 'site-db', sources: [{ dir: 'docs', type: 'doc', url: '/docs/:slug' }] };


describe('the analytics option (docs/analytics.md)', () => {
  it('is off unless asked for', () => {
    expect(resolveConfig(minimal).analytics).toBe(false);
    expect(resolveConfig({ ...minimal, analytics: false }).analytics).toBe(false);
  });

  it('true stands for every default', () => {
    expect(resolveConfig({ ...minimal, analytics: true }).analytics).toEqual({
      retentionDays: 90,
      dailyQueryCap: 1000,
      flushSeconds: 300,
      sqlitePath: '.site-search/analytics.db',
    });
  });

  it('an object is merged with the defaults, and a resolved config resolves again unchanged', () => {
    const config = resolveConfig({ ...minimal, analytics: { retentionDays: 30, engineBinding: 'SEARCH_ANALYTICS' } });
    expect(config.analytics).toEqual({
      retentionDays: 30,
      dailyQueryCap: 1000,
      flushSeconds: 300,
      sqlitePath: '.site-search/analytics.db',
      engineBinding: 'SEARCH_ANALYTICS',
    });
    expect(resolveConfig({ ...config, cors: false }).analytics).toEqual(config.analytics);
  });

  it('rejects bad values with their path, and unknown keys with a guess', () => {
    expect(problems({ ...minimal, analytics: 'yes' })).toEqual(['analytics: must be true, false or an object such as { retentionDays: 90 }']);
    expect(problems({ ...minimal, analytics: { retentionDays: 0, dailyQueryCap: 1.5 } })).toEqual([
      'analytics.retentionDays: must be at least 1',
      'analytics.dailyQueryCap: must be a whole number',
    ]);
    expect(problems({ ...minimal, analytics: { retentionDay: 10 } })).toEqual(['analytics.retentionDay: unknown option (did you mean "retentionDays"?)']);
  });
});
