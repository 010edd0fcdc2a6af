import type { SearchDatabase } from './db/types.js';
import { editDistance } from './edit-distance.js';
import { foldWord } from './fold.js';
import { VOCAB_TABLE } from './schema.js';

/** Words shorter than this are not corrected: too many real words lie one edit away from them. */
const MIN_TYPO_LENGTH = 4;
/** Candidates read per misspelled word (ranked by shared trigrams), before the edit-distance filter. */
const CANDIDATES = 40;
/** Corrections kept per word. */
const MAX_CORRECTIONS = 3;

/** Edits allowed: 1 for words of 4–7 letters, 2 for longer ones. */
export function maxEdits(word: string): number {
  return word.length >= 8 ? 2 : 1;
}

/** Whether a term is a word typo tolerance applies to (letters only, long enough). */
export function isCorrectable(term: string): boolean {
  return term.length >= MIN_TYPO_LENGTH && /^\p{L}+$/u.test(term) && !/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(term);
}

/**
 * For each term that is not itself in the indexed vocabulary, the indexed words within `maxEdits` of it, nearest
 * first. One trigram query per such term (no scan of the vocabulary), so it stays cheap on D1. An index without a
 * vocabulary table (built by an older indexer) simply gets no corrections.
 */
export async function findCorrections(
  db: SearchDatabase,
  terms: string[],
  { site, type }: { site: string; type: string },
): Promise<Map<string, string[]>> {
  const scope = [site ? ' AND site = ?' : '', type ? ' AND type = ?' : ''].join('');
  const scopeParams = [site, type].filter(Boolean);
  const corrections = new Map<string, string[]>();
  for (const term of new Set(terms.filter(isCorrectable))) {
    const folded = foldWord(term);
    const trigrams = candidateTrigrams(folded);
    const match = [...trigrams].map((t) => `"${t}"`).join(' OR ');
    let rows: { term: string }[];
    try {
      ({ results: rows } = await db
        .prepare(`SELECT term FROM ${VOCAB_TABLE} WHERE ${VOCAB_TABLE} MATCH ?${scope} ORDER BY rank LIMIT ${CANDIDATES}`)
        .bind(match, ...scopeParams)
        .all<{ term: string }>());
    } catch (e) {
      if (/no such table/i.test(String((e as Error).message))) return corrections;
      throw e;
    }
    const candidates = rows.map((r) => ({ word: r.term, distance: editDistance(folded, foldWord(r.term)) }));
    if (candidates.some((c) => c.distance === 0)) continue;
    const near = candidates
      .filter((c) => c.distance <= maxEdits(folded))
      .sort((a, b) => a.distance - b.distance)
      .slice(0, MAX_CORRECTIONS)
      .map((c) => c.word);
    if (near.length) corrections.set(term, near);
  }
  return corrections;
}

/**
 * The trigrams vocabulary candidates are found by: the word's own, and those of the word with each pair of neighbours
 * swapped. A swap changes up to three consecutive trigrams, so a short word with one ("cahce") shares none with the
 * word meant ("cache") and would never be a candidate for the edit-distance check that counts a swap as one edit.
 */
export function candidateTrigrams(word: string): Set<string> {
  const trigrams = new Set<string>();
  const add = (w: string) => {
    for (let i = 0; i + 3 <= w.length; i++) trigrams.add(w.slice(i, i + 3));
  };
  add(word);
  const letters = [...word];
  for (let i = 0; i + 1 < letters.length; i++) {
    if (letters[i] === letters[i + 1]) continue;
    const swapped = [...letters];
    [swapped[i], swapped[i + 1]] = [swapped[i + 1]!, swapped[i]!];
    add(swapped.join(''));
  }
  return trigrams;
}
