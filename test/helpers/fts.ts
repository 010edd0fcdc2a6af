/**
 * The one-letter prefixes FTS5 reads in a match expression: each starred phrase's last word as SQLite's unicode61
 * tokenizer splits it (at anything but letters, numbers, private use and combining marks, which it drops).
 */
export function oneLetterPrefixes(expression: string): string[] {
  return [...expression.matchAll(/"((?:[^"]|"")*)"\*/g)]
    .map((m) => m[1]!.split(/[^\p{L}\p{N}\p{Co}\p{Mn}]+/u).filter(Boolean).at(-1) ?? '')
    .filter((word) => [...word.replace(/\p{Mn}/gu, '')].length < 2);
}

/** The match expressions bound to the statements a search runs (phrases or groups; the lookups' JSON starts with '['). */
export function matchExpressions(sql: string, params: unknown[]): string[] {
  return sql.includes('MATCH') ? params.filter((p): p is string => typeof p === 'string' && /^["(]/.test(p)) : [];
}
