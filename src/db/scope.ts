/**
 * Where a page belongs (its site, its type, its tags), written as words of the full-text row's `scope` column, so that
 * a search is filtered inside the full-text query itself: `(words) AND scope : "t656e0"` finds the English pages
 * holding the words without reading a row of another type, and a query without a type can still correct a word in one
 * type only (`("kelp" AND scope : "t646f630")`). A filter read from another table instead costs a row for every match
 * of every type.
 *
 * A scope word is a letter naming what it stands for (`s` site, `t` type, `g` tag), the value's UTF-8 bytes in hex, and
 * a final `0`: letters and digits only, so FTS5's tokenizer keeps it one word, and ending in a digit, so its Porter
 * stemmer, whose rules all end in letters, leaves it as written. Hex keeps every value exact (a tag is case-sensitive,
 * `API` is not `api`), whatever its script, and no two values share a word.
 */

/** The full-text column the scope words are in. Its bm25 weight is 0: where a page belongs never makes it rank. */
export const SCOPE_COLUMN = 'scope';

const encoder = new TextEncoder();

function scopeWord(kind: 's' | 't' | 'g', value: string): string {
  let hex = '';
  for (const byte of encoder.encode(value)) hex += byte.toString(16).padStart(2, '0');
  return `${kind}${hex}0`;
}

/** The scope word of a site (pages of the empty site, the default, have none: a search without a site sees every row). */
export const siteWord = (site: string) => scopeWord('s', site);
/** The scope word of a type. */
export const typeWord = (type: string) => scopeWord('t', type);
/** The scope word of a tag (one of a page's tags, as stored: NFC, without invisible characters). */
export const tagWord = (tag: string) => scopeWord('g', tag);

/** A page's `scope` column: its site's word (unless the site is empty), its type's, and one per tag. */
export function scopeText(site: string, type: string, tags: readonly string[]): string {
  return [...(site ? [siteWord(site)] : []), typeWord(type), ...tags.map(tagWord)].join(' ');
}

/** An expression matching the pages whose scope holds `word` (a phrase restricted to the scope column). */
export function inScope(word: string): string {
  return `${SCOPE_COLUMN} : "${word}"`;
}

/** An expression matching the pages whose scope holds any of `words` (at least one). */
export function inAnyScope(words: readonly string[]): string {
  return words.length === 1 ? inScope(words[0]!) : `${SCOPE_COLUMN} : (${words.map((w) => `"${w}"`).join(' OR ')})`;
}
