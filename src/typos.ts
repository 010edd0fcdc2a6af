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
    const trigrams = new Set<string>();
    for (let i = 0; i + 3 <= folded.length; i++) trigrams.add(folded.slice(i, i + 3));
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
