import { isCorrectable } from '../typos.js';
import type { IndexDocument } from './document.js';

/** A word of the vocabulary and the document type it occurs in (a search filtered by type corrects within it). */
export interface VocabularyWord {
  term: string;
  type: string;
}

/**
 * The distinct words, per document type, that typo tolerance may correct a query to (letters only, 4+ long, not
 * CJK), lowercased. Documents are added one at a time, so a streamed push holds words, not documents.
 */
export class Vocabulary {
  private readonly byType = new Map<string, Set<string>>();

  add(d: IndexDocument): void {
    let words = this.byType.get(d.type);
    if (!words) this.byType.set(d.type, (words = new Set()));
    for (const text of [d.title, d.description, d.tags, d.content]) {
      for (const term of text.toLowerCase().match(/\p{L}{4,}/gu) ?? []) {
        // Most words repeat: check the set before the (slower) correctability test.
        if (term.length <= 40 && !words.has(term) && isCorrectable(term)) words.add(term);
      }
    }
  }

  /** The words, sorted by type then term so pushes are reproducible. */
  words(): VocabularyWord[] {
    return [...this.byType.keys()].sort().flatMap((type) => [...this.byType.get(type)!].sort().map((term) => ({ term, type })));
  }
}

/** The vocabulary of a set of documents. */
export function vocabularyOf(documents: Iterable<IndexDocument>): VocabularyWord[] {
  const vocabulary = new Vocabulary();
  for (const d of documents) vocabulary.add(d);
  return vocabulary.words();
}
