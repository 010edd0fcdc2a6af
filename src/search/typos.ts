import { isFiller } from '../ranking/filler.js';
import { isCorrectable } from '../text/correctable-words.js';
import { editDistance } from '../text/edit-distance.js';
import { foldWord } from '../text/fold.js';
/** Corrections kept per word. */
const MAX_CORRECTIONS = 3;

/** Edits allowed: 1 for words of 4–7 letters, 2 for longer ones. */
export function maxEdits(word: string): number {
  return word.length >= 8 ? 2 : 1;
}

/**
 * The query's words typo tolerance applies to, each once, in order. Filler is never corrected: it is spelled as some
 * language writes it (the French "pour" is not a misspelling of "your" in an English type), it finds no page, and its
 * corrections are among the commonest words of a type, which every page holds.
 */
export function correctableWords(terms: readonly string[]): string[] {
  return [...new Set(terms.filter((term) => isCorrectable(term) && !isFiller(term)))];
}

/**
 * What a word not in a type's vocabulary stands for there, from that type's most alike words (`candidates`, most alike
 * first): its corrections within `maxEdits`, nearest first, at most three; none when a candidate is the word itself
 * but for accents (it is not misspelled).
 *
 * The query's last word (`last`, matched as a prefix) is more often typed partway than misspelled: when words start
 * with it, the shortest of them completes it instead. The index holds stems, and a word typed past its stem
 * (`integrat`, stem `integr`) starts none, so its prefix alone finds little; the completion ("integrate") is stemmed
 * like the words it stands for. One, so that the stem is not counted once per completion in bm25.
 */
export function chooseCorrections(word: string, candidates: readonly string[], last: boolean, distance: (candidate: string) => number = distanceFrom(word)): string[] {
  const folded = foldWord(word);
  const scored = candidates.map((candidate) => ({ candidate, distance: distance(candidate) }));
  if (scored.some((c) => c.distance === 0)) return [];
  if (last) {
    const [completion] = scored.filter((c) => completes(word, c.candidate)).sort((a, b) => a.candidate.length - b.candidate.length);
    if (completion) return [completion.candidate];
  }
  return scored
    .filter((c) => c.distance <= maxEdits(folded))
    .sort((a, b) => a.distance - b.distance)
    .slice(0, MAX_CORRECTIONS)
    .map((c) => c.candidate);
}

/**
 * The edit distance from `word` to a candidate, each candidate's computed once: the types of a site share most of a
 * word's candidates, and a word is judged in each type asked.
 */
export function distanceFrom(word: string): (candidate: string) => number {
  const folded = foldWord(word);
  const known = new Map<string, number>();
  return (candidate) => {
    let distance = known.get(candidate);
    if (distance === undefined) known.set(candidate, (distance = editDistance(folded, foldWord(candidate))));
    return distance;
  };
}

/** Whether `word` is `typed` completed: it starts with it (accents and case aside) and is longer. */
export function completes(typed: string, word: string): boolean {
  const start = foldWord(typed);
  const folded = foldWord(word);
  return folded.length > start.length && folded.startsWith(start);
}

/** A folded word's trigrams, in order, by characters (a word of one or two letters has none). */
export function trigramsOf(folded: string): string[] {
  const letters = [...folded];
  const trigrams: string[] = [];
  for (let i = 0; i + 3 <= letters.length; i++) trigrams.push(letters[i]! + letters[i + 1]! + letters[i + 2]!);
  return trigrams;
}

/**
 * The trigrams vocabulary candidates are found by: the word's own, and for a short word those of the word with each
 * pair of neighbours swapped. A swap changes up to four consecutive trigrams, so a short word with one ("cahce") shares
 * none with the word meant ("cache") and would never be a candidate for the edit-distance check that counts a swap as
 * one edit. A word of 8+ letters (`maxEdits` 2) has 6+ trigrams and keeps at least two of its own through a swap; its
 * swapped trigrams would only help a swap plus another edit placed so that no trigram of its own survives, and each
 * trigram more costs every vocabulary word that holds it.
 */
export function candidateTrigrams(word: string): Set<string> {
  const trigrams = new Set(trigramsOf(word));
  if (maxEdits(word) > 1) return trigrams;
  const letters = [...word];
  for (let i = 0; i + 1 < letters.length; i++) {
    if (letters[i] === letters[i + 1]) continue;
    const swapped = [...letters];
    [swapped[i], swapped[i + 1]] = [swapped[i + 1]!, swapped[i]!];
    for (const trigram of trigramsOf(swapped.join(''))) trigrams.add(trigram);
  }
  return trigrams;
}
