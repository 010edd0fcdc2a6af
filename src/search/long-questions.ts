/**
 * Long questions (docs/ranking.md, "Long questions"): a query of more words than `maxTerms` is a question in the
 * reader's own words, or an assistant's. SPEC.md's literal ranking searches its first `maxTerms` words; the coverage
 * ranking searches its informative words instead, and when there are still more than `maxTerms` of them, the rarest:
 * those that tell the page that answers from the rest. Rarity is counted in the index, each word's pages up to a bound,
 * in one statement; a word no page holds is left out unless the vocabulary corrects it.
 */
import { isFiller } from '../ranking/filler.js';
import { wordsOf } from '../ranking/expressions.js';

/** What a search makes of its words before judging them. */
export type QueryPlan =
  /** At most `maxTerms` words: searched as typed. */
  | { kind: 'typed'; terms: string[] }
  /** More words, but at most `maxTerms` informative ones: those are searched, each whole. */
  | { kind: 'informative'; terms: string[] }
  /** More informative words than `maxTerms`: the rarest are searched, once each word's pages are counted. */
  | { kind: 'rarest'; words: string[] };

/**
 * The informative words counted at most, the first ones: a question of 500 characters has about 50 words and seldom 30
 * informative ones; the bound keeps the count's statement (a lookup per word) bounded whatever the input.
 */
export const MAX_COUNTED_WORDS = 30;

/**
 * The pages counted in all, over the words of a question (each word's count stops at this divided by their number):
 * what the count costs where rows read are billed (D1), about half of what a short query's ranking reads. A word
 * whose count reaches its bound is common; which common word is kept does not matter as much as keeping the rare ones.
 */
export const COUNTED_PAGES = 600;

/** Each word's count stops here: at least the number that tells a rare word from a common one on a small site. */
export function countBound(words: number): number {
  return Math.max(MIN_COUNT_BOUND, Math.floor(COUNTED_PAGES / Math.max(1, words)));
}

const MIN_COUNT_BOUND = 20;

/**
 * What a search makes of the query's words: up to `maxTerms` of them as typed; beyond, its informative words (each
 * once, filler left out, words of punctuation alone too), all of them when there are at most `maxTerms`, else the
 * first {@link MAX_COUNTED_WORDS} to count and keep the rarest of.
 */
export function planQuery(words: readonly string[], maxTerms: number): QueryPlan {
  if (words.length <= maxTerms) return { kind: 'typed', terms: [...words] };
  const informative = informativeWords(words);
  // A question of filler alone ("how do I do this and that") is searched as its first words, as before.
  if (informative.length === 0) return { kind: 'typed', terms: words.slice(0, maxTerms) };
  if (informative.length <= maxTerms) return { kind: 'informative', terms: informative };
  return { kind: 'rarest', words: informative.slice(0, MAX_COUNTED_WORDS) };
}

/** The words of a question that tell pages apart, each once, in order: not filler, not punctuation alone. */
export function informativeWords(words: readonly string[]): string[] {
  const found = words.filter((word) => wordsOf(word).some((part) => /[\p{L}\p{N}]/u.test(part) && !isFiller(part)));
  return [...new Set(found)];
}

/**
 * The `maxTerms` rarest of `words`, in the question's order: by the pages counted for each (`counts`, up to a bound),
 * fewest first, the earlier word first among equals. A word no page holds is left out, unless it is `corrected` (a
 * misspelling the vocabulary corrects: it is kept before every other, the reader named it).
 */
export function rarestWords(words: readonly string[], counts: ReadonlyMap<string, number>, corrected: ReadonlySet<string>, maxTerms: number): string[] {
  const rarity = (word: string) => (corrected.has(word) ? 0 : (counts.get(word) ?? 0));
  const kept = words
    .map((word, position) => ({ word, position, pages: rarity(word) }))
    .filter(({ word, pages }) => pages > 0 || corrected.has(word))
    .sort((a, b) => a.pages - b.pages || a.position - b.position)
    .slice(0, maxTerms);
  return kept.sort((a, b) => a.position - b.position).map(({ word }) => word);
}
