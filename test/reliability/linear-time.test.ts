/**
 * Text extraction on adversarial Markdown runs in linear time: contributors write the content the indexer reads in
 * CI, and one crafted page must not stall a build. Each case runs at size n and 4n and the work is counted, not timed
 * (characters the string and regex primitives scan, test/helpers/scan-count.ts): linear work grows 4×, quadratic 16×.
 * A count does not depend on the machine, so a slow or busy one cannot fail it; speed is the benchmark's business.
 */
import { expect, it } from 'vitest';
import { markdownToText, markdownSections } from '../../src/indexer/text.js';
import { countScanned } from '../helpers/scan-count.js';
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

it('the count sees quadratic work: rescanning the rest of the input from every position grows 16×', () => {
  const rescan = (text: string) => () => {
    for (let i = 0; i < text.length; i++) text.indexOf('!', i);
  };
  const ratio = countScanned(rescan('a'.repeat(4000))) / countScanned(rescan('a'.repeat(1000)));
  expect(ratio).toBeGreaterThan(15);
});

it.each(Object.entries(CASES))('%s: 4× the input takes 4× the work', (_name, make) => {
  const small = make(N);
  const large = make(4 * N);
  for (const run of [markdownToText, markdownSections]) {
    const ratio = countScanned(() => run(large)) / countScanned(() => run(small));
    // Linear work gives 4× (4.2× at most here, from the nested lists' longer item numbers), quadratic 16×.
    expect(ratio, `${run.name}: ${ratio.toFixed(2)}×`).toBeLessThan(5);
  }
});
