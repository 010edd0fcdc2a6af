/**
 * Text extraction on adversarial Markdown runs in linear time: contributors write the content the indexer reads in
 * CI, and one crafted page must not stall a build. Each case is timed at size n and 4n; linear work takes about 4×
 * as long, quadratic work 16×. The bound is on that ratio, not on wall-clock time, so a slow machine does not fail it.
 */
import { expect, it } from 'vitest';
import { markdownToText, markdownSections } from '../../src/indexer/index.js';

const CASES: Record<string, (n: number) => string> = {
  backticks: (n) => '`'.repeat(n),
  'unclosed code spans': (n) => 'a `b '.repeat(n / 5),
  'open brackets': (n) => '['.repeat(n),
  'nested images': (n) => '!['.repeat(n / 2),
  'link destinations': (n) => `[a](${'('.repeat(n)}`,
  emphasis: (n) => '*_'.repeat(n / 2),
  'unclosed JSX tags': (n) => '<Foo bar="x" '.repeat(n / 13),
  'JSX attribute braces': (n) => `<A b={${'{'.repeat(n)}`,
  'unclosed MDX comments': (n) => '{/* '.repeat(n / 4),
  'HTML comments': (n) => '<!-- '.repeat(n / 5),
  entities: (n) => '&#'.repeat(n / 2),
  'nested quotes': (n) => `${'>'.repeat(n)} text`,
  'nested lists': (n) => Array.from({ length: n / 50 }, (_, i) => `${' '.repeat(i % 40)}- item ${i}`).join('\n'),
  'unclosed fences': (n) => '```js\ncode\n'.repeat(n / 11),
  'many headings': (n) => '## h\ntext\n'.repeat(n / 10),
  'long line of words': (n) => 'word '.repeat(n / 5),
};

const N = 60_000;

/** Median times of `small` and `large`, measured alternately so a burst of load from other tests hits both. */
function times(small: () => void, large: () => void): [number, number] {
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < 7; i++) {
    let t = performance.now();
    small();
    a.push(performance.now() - t);
    t = performance.now();
    large();
    b.push(performance.now() - t);
  }
  const median = (x: number[]) => x.sort((p, q) => p - q)[3]!;
  return [median(a), median(b)];
}

it.each(Object.entries(CASES))('%s: 4× the input takes well under 16× the time', (_name, make) => {
  const small = make(N);
  const large = make(4 * N);
  for (const run of [markdownToText, markdownSections]) {
    run(small); // warm up
    const [t1, t4] = times(() => run(small), () => run(large));
    const ratio = t4 / Math.max(t1, 0.5);
    // Linear work gives about 4×, quadratic 16×.
    expect(ratio, `${run.name}: ${ratio.toFixed(1)}×`).toBeLessThan(12);
  }
});
