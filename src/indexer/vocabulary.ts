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
      forEachLetterRun(text, (term) => {
        // Most words repeat: check the set before the (slower) correctability test.
        if (term.length <= 40 && !words.has(term) && isCorrectable(term)) words.add(term);
      });
    }
  }

  /** The words, sorted by type then term so pushes are reproducible. */
  words(): VocabularyWord[] {
    return [...this.byType.keys()].sort().flatMap((type) => [...this.byType.get(type)!].sort().map((term) => ({ term, type })));
  }
}

const LETTERS = /\p{L}{4,}/gu;

/**
 * Calls `fn` with each run of 4+ letters in `text` (what `/\p{L}{4,}/gu` matches), lowercased. A regular expression
 * over every page made a match object per word and was most of what building the vocabulary cost; this walks the
 * character codes, and applies the Unicode-aware expression only to the few candidate runs that are not plain ASCII.
 */
export function forEachLetterRun(text: string, fn: (word: string) => void): void {
  // A candidate run is a maximal run of characters that are not ASCII digits, spaces or punctuation: every run of
  // letters lies inside one.
  let start = -1;
  let ascii = true;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 0;
    if (c >= 128 || (c >= 97 && c <= 122) || (c >= 65 && c <= 90)) {
      if (start < 0) (start = i), (ascii = true);
      if (c >= 128) ascii = false;
    } else if (start >= 0) {
      if (i - start >= 4) {
        const candidate = text.slice(start, i);
        if (ascii) fn(candidate.toLowerCase());
        else for (const [run] of candidate.matchAll(LETTERS)) fn(run.toLowerCase());
      }
      start = -1;
    }
  }
}

/** The vocabulary of a set of documents. */
export function vocabularyOf(documents: Iterable<IndexDocument>): VocabularyWord[] {
  const vocabulary = new Vocabulary();
  for (const d of documents) vocabulary.add(d);
  return vocabulary.words();
}
