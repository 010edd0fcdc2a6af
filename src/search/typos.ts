import { isCorrectable } from '../text/correctable-words.js';
import { editDistance } from '../text/edit-distance.js';
import { foldWord } from '../text/fold.js';

/** Candidates read per misspelled word (ranked by shared trigrams), before the edit-distance filter. */
export const CANDIDATES = 40;
/** Corrections kept per word. */
const MAX_CORRECTIONS = 3;

/** Edits allowed: 1 for words of 4–7 letters, 2 for longer ones. */
export function maxEdits(word: string): number {
  return word.length >= 8 ? 2 : 1;
}

/** A word that may be misspelled, and how to look it up. */
export interface CorrectionLookup {
  term: string;
  /** Trigram expression that finds the vocabulary words containing the word (the last term is a prefix: contained). */
  in: string;
  /** FTS5 expression over the vocabulary table's trigrams, ranked by how many the candidates share. */
  near: string;
}

/** The lookups for a query's words that typo tolerance applies to, each word once. */
export function correctionLookups(terms: string[]): CorrectionLookup[] {
  return [...new Set(terms.filter(isCorrectable))].map((term) => ({
    term,
    // Correctable words are letters only: quoting is all they need.
    in: `"${term}"`,
    near: [...candidateTrigrams(foldWord(term))].map((t) => `"${t}"`).join(' OR '),
  }));
}

/**
 * For each looked-up word that is not itself in the indexed vocabulary, the candidates within `maxEdits` of it,
 * nearest first. `candidates[i]` are the words the vocabulary returned for `lookups[i]`.
 *
 * The query's last word (`prefix`, matched as a prefix) is more often typed partway than misspelled: when vocabulary
 * words start with it, the shortest of them completes it instead. The index holds stems, and a word typed past its
 * stem (`integrat`, stem `integr`) starts none, so its prefix alone finds little; the completion ("integrate") is
 * stemmed like the words it stands for. One, so that the stem is not counted once per completion in bm25.
 */
export function chooseCorrections(lookups: CorrectionLookup[], candidates: string[][], prefix?: string): Map<string, string[]> {
  const corrections = new Map<string, string[]>();
  lookups.forEach(({ term }, i) => {
    const folded = foldWord(term);
    const scored = (candidates[i] ?? []).map((word) => ({ word, distance: editDistance(folded, foldWord(word)) }));
    if (scored.some((c) => c.distance === 0)) return;
    if (term === prefix) {
      const [completion] = scored.filter((c) => completes(term, c.word)).sort((a, b) => a.word.length - b.word.length);
      if (completion) return void corrections.set(term, [completion.word]);
    }
    const near = scored
      .filter((c) => c.distance <= maxEdits(folded))
      .sort((a, b) => a.distance - b.distance)
      .slice(0, MAX_CORRECTIONS)
      .map((c) => c.word);
    if (near.length) corrections.set(term, near);
  });
  return corrections;
}

/** Whether `word` is `typed` completed: it starts with it (accents and case aside) and is longer. */
export function completes(typed: string, word: string): boolean {
  const start = foldWord(typed);
  const folded = foldWord(word);
  return folded.length > start.length && folded.startsWith(start);
}

/**
 * The trigrams vocabulary candidates are found by: the word's own, and for a short word those of the word with each
 * pair of neighbours swapped. A swap changes up to four consecutive trigrams, so a short word with one ("cahce") shares
 * none with the word meant ("cache") and would never be a candidate for the edit-distance check that counts a swap as
 * one edit. A word of 8+ letters (`maxEdits` 2) has 6+ trigrams and keeps at least two of its own through a swap; its
 * swapped trigrams would only help a swap plus another edit placed so that no trigram of its own survives. They are
 * left out because the candidates are ranked by FTS5's bm25 over every trigram of the expression: each one more costs
 * every vocabulary word read (a 16-letter word with its swaps had 66, and its lookup took ten times the search;
 * docs/decisions.md).
 */
export function candidateTrigrams(word: string): Set<string> {
  const trigrams = new Set<string>();
  const add = (w: string) => {
    for (let i = 0; i + 3 <= w.length; i++) trigrams.add(w.slice(i, i + 3));
  };
  add(word);
  if (maxEdits(word) > 1) return trigrams;
  const letters = [...word];
  for (let i = 0; i + 1 < letters.length; i++) {
    if (letters[i] === letters[i + 1]) continue;
    const swapped = [...letters];
    [swapped[i], swapped[i + 1]] = [swapped[i + 1]!, swapped[i]!];
    add(swapped.join(''));
  }
  return trigrams;
}
