/**
 * Optimal-string-alignment (restricted Damerau–Levenshtein) distance: insertions, deletions, substitutions and swaps
 * of two neighbouring letters, each one edit. A swap is the commonest typing slip ("cahce", "wrokers"); as two
 * substitutions it would exceed the one edit short words are allowed. For "did you mean" and typo tolerance.
 */
export function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      row[j] = d;
    }
    before = prev;
    prev = row;
  }
  return prev[b.length]!;
}
