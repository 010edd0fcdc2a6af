import { isCorrectable } from '../typos.js';
import type { IndexDocument } from './document.js';

/** A word of the vocabulary and the document type it occurs in (a search filtered by type corrects within it). */
export interface VocabularyWord {
  term: string;
  type: string;
}

/**
 * The distinct words, per document type, that typo tolerance may correct a query to (letters only, 4+ long, not
 * CJK), lowercased, sorted so pushes are reproducible.
 */
export function vocabularyOf(documents: IndexDocument[]): VocabularyWord[] {
  const words = new Map<string, VocabularyWord>();
  for (const d of documents) {
    for (const text of [d.title, d.description, d.tags, d.content]) {
      for (const term of text.toLowerCase().match(/\p{L}+/gu) ?? []) {
        if (term.length <= 40 && isCorrectable(term)) words.set(`${d.type}\u0000${term}`, { term, type: d.type });
      }
    }
  }
  return [...words.keys()].sort().map((key) => words.get(key)!);
}
