/**
 * Counts the characters the string and regular-expression primitives scan while `run` executes: a measure of work that
 * does not depend on the machine's speed or load. Each call is charged what it must read to give its result: a regex
 * match from where it started to the end of the match (to the end of the input when it fails), `indexOf` from its
 * start to the hit (or the end), `slice`/`substring` the length they copy. Rescanning the rest of the input from each
 * position, the usual cause of quadratic time in a text scanner, shows up as quadratic growth of this count.
 * Backtracking inside one regex call is not seen (it is charged as one scan); a regex that backtracks is a review matter.
 */
type Fn = (...args: any[]) => any;

export function countScanned(run: () => void): number {
  let chars = 0;
  const exec = RegExp.prototype.exec;
  const str = String.prototype as unknown as Record<string, Fn>;
  const originals: Record<string, Fn> = {};
  const patch = (name: string, cost: (s: string, args: any[], result: any) => number) => {
    const original = str[name]!;
    originals[name] = original;
    str[name] = function (this: string, ...args: any[]) {
      const result = original.apply(this, args);
      chars += cost(String(this), args, result);
      return result;
    };
  };
  RegExp.prototype.exec = function (this: RegExp, input: string) {
    const text = String(input);
    const start = this.global || this.sticky ? this.lastIndex : 0;
    const match = exec.call(this, text);
    chars += match ? match.index + match[0].length - start : text.length - start;
    return match;
  };
  const from = (args: any[]) => Math.max(0, Number(args[1] ?? 0) || 0);
  patch('indexOf', (s, args, at: number) => (at === -1 ? s.length : at + String(args[0]).length) - from(args));
  patch('includes', (s, args, found: boolean) => (found ? String(args[0]).length : s.length - from(args)));
  patch('lastIndexOf', (s, _args, at: number) => (at === -1 ? s.length : s.length - at));
  patch('slice', (_s, _args, out: string) => out.length);
  patch('substring', (_s, _args, out: string) => out.length);
  try {
    run();
  } finally {
    RegExp.prototype.exec = exec;
    Object.assign(str, originals);
  }
  return chars;
}
