/**
 * `npm run bench` writes its sections into docs/benchmarks.md and keeps the sections other commands measured (issue 55,
 * item 4: the page is a reference, one section per figure; the run used to rewrite the whole page, dropping them).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { spliceSections } from '../../bench/splice-sections.js';

const page = `# Benchmarks

Old introduction.

## Targets

old targets

## Cost at the floor of what it ranks

measured by hand, kept

## Worker bundle

old bundle
`;

const run = `# Benchmarks

New introduction.

## Targets

new targets

## Worker bundle

new bundle

## Load

new load
`;

describe("the benchmark run's sections written into the page", () => {
  it('replaces the introduction and each section the run measured, keeps the others in place, adds new ones at the end', () => {
    expect(spliceSections(page, run)).toBe(`# Benchmarks

New introduction.

## Targets

new targets

## Cost at the floor of what it ranks

measured by hand, kept

## Worker bundle

new bundle

## Load

new load
`);
  });

  it('leaves the real page as it is when the run writes it again', () => {
    const real = readFileSync(new URL('../../docs/benchmarks.md', import.meta.url), 'utf8');
    expect(spliceSections(real, real)).toBe(real);
  });
});
