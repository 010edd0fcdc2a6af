/**
 * Queries as readers type them, generated from the corpus's own words (fast-check arbitraries): words of a type's
 * pages, frequent and rare, a word of another type's language, filler phrases, identifiers split into their words
 * (`define config`), punctuated terms (`client:load`), words in no page; words misspelled by one edit (two letters
 * swapped, one dropped, one inserted, one changed), and the last word cut partway as a search box sends it.
 */
import fc from 'fast-check';
import type { IndexDocument } from '../../src/indexer/index.js';

/** What readers put around the words that matter, in the corpus's languages. */
const FILLERS = ['how do i', 'how to', 'what is the', 'why does my', 'with a', 'comment', 'comment faire', 'pourquoi le', 'wie kann ich', 'was ist der'];

/** Letters that make words near no word of the corpus. */
const UNUSED_LETTERS = 'qxzjkvw';

/** The words of each type's pages, and the identifiers and punctuated terms of all of them. */
export interface Vocabulary {
  /** Per type, its words in at least three of its pages (the queries most pages answer). */
  frequent: Map<string, string[]>;
  /** Per type, every word of its pages. */
  every: Map<string, string[]>;
  /** camelCase identifiers of the pages, as their words (`define config`). */
  identifiers: string[];
  /** Terms with a colon or a dot inside (`client:load`, `shell.openexternal`). */
  punctuated: string[];
  /** Every word of every page: what a word in no page is checked against. */
  known: Set<string>;
}

/** The words of the pages (lowercased, 3–16 letters or digits, at least one letter), sorted so a seed replays a run. */
export function vocabularyOf(pages: IndexDocument[]): Vocabulary {
  const counts = new Map<string, Map<string, number>>();
  const identifiers = new Set<string>();
  const punctuated = new Set<string>();
  for (const page of pages) {
    const text = `${page.title} ${page.description} ${page.content}`;
    const words = new Set((text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length >= 3 && w.length <= 16 && /\p{L}/u.test(w)));
    const ofType = counts.get(page.type) ?? new Map<string, number>();
    for (const word of words) ofType.set(word, (ofType.get(word) ?? 0) + 1);
    counts.set(page.type, ofType);
    for (const id of text.match(/\b[a-z]+(?:[A-Z][a-z]+)+\b/g) ?? []) identifiers.add(id.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`));
    for (const term of text.match(/\b[a-z]{2,}[:.][a-z]{2,}\b/g) ?? []) punctuated.add(term);
  }
  const sorted = (words: Iterable<string>) => [...words].sort();
  return {
    frequent: new Map([...counts].map(([type, words]) => [type, sorted([...words].filter(([, n]) => n >= 3).map(([w]) => w))])),
    every: new Map([...counts].map(([type, words]) => [type, sorted(words.keys())])),
    identifiers: sorted(identifiers),
    punctuated: sorted(punctuated),
    known: new Set([...counts.values()].flatMap((words) => [...words.keys()])),
  };
}

/** A word with one slip: two neighbours swapped, one letter dropped, inserted or changed (to another of its letters). */
const misspelled = (word: fc.Arbitrary<string>) =>
  fc.tuple(word, fc.constantFrom('swap', 'drop', 'insert', 'change'), fc.nat(), fc.nat()).map(([w, slip, at, pick]) => {
    const i = at % w.length;
    const letters = [...new Set(w)].sort();
    const letter = letters[pick % letters.length]!;
    if (slip === 'swap' && i < w.length - 1 && w[i] !== w[i + 1]) return w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2);
    if (slip === 'drop') return w.slice(0, i) + w.slice(i + 1);
    if (slip === 'insert') return w.slice(0, i) + letter + w.slice(i);
    return w.slice(0, i) + (letter === w[i] ? letters[(pick + 1) % letters.length] : letter) + w.slice(i + 1);
  });

/**
 * A query of one to five pieces, mostly in the language of one type (the `home` the reader reads); half of them with a
 * misspelled word somewhere (where the suggestion and the per-type judgements are decided), and the last word cut to a
 * prefix (at least two letters) one time in three.
 */
export function queries(vocabulary: Vocabulary): fc.Arbitrary<string> {
  const types = [...vocabulary.every.keys()].sort();
  const nowhere = fc
    .array(fc.constantFrom(...UNUSED_LETTERS), { minLength: 5, maxLength: 8 })
    .map((letters) => letters.join(''))
    .filter((word) => !vocabulary.known.has(word));
  const pieces = (home: string) => {
    const frequent = fc.constantFrom(...vocabulary.frequent.get(home)!);
    const any = fc.constantFrom(...vocabulary.every.get(home)!);
    const foreign = fc.constantFrom(...types.filter((t) => t !== home)).chain((other) => fc.constantFrom(...vocabulary.frequent.get(other)!));
    const slip = misspelled(fc.oneof(frequent, any).filter((w) => w.length >= 4));
    const piece = fc.oneof(
      { arbitrary: frequent, weight: 5 },
      { arbitrary: any, weight: 2 },
      { arbitrary: slip, weight: 3 },
      { arbitrary: foreign, weight: 1 },
      { arbitrary: fc.constantFrom(...FILLERS), weight: 1 },
      { arbitrary: fc.constantFrom(...vocabulary.identifiers), weight: 1 },
      { arbitrary: fc.constantFrom(...vocabulary.punctuated), weight: 1 },
      { arbitrary: nowhere, weight: 1 },
    );
    return fc
      .tuple(fc.array(piece, { minLength: 1, maxLength: 5 }), fc.option(slip), fc.nat())
      .map(([some, misspelling, at]) => (misspelling === null ? some : some.toSpliced(at % (some.length + 1), 0, misspelling)));
  };
  return fc
    .constantFrom(...types)
    .chain((home) => fc.tuple(pieces(home), fc.nat(2), fc.nat()))
    .map(([words, cut, at]) => {
      const query = words.join(' ');
      const last = query.slice(query.lastIndexOf(' ') + 1);
      if (cut !== 0 || last.length <= 2) return query;
      return query.slice(0, query.length - last.length + 2 + (at % (last.length - 2)));
    });
}
