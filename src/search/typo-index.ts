import { foldWord } from '../text/fold.js';
import { CANDIDATES, type CorrectionLookup } from './typos.js';

/** A row of the vocabulary table (`search_vocab`) as the typo index holds it. */
export interface VocabularyEntry {
  /** Its row id: among candidates that score the same, the lower one comes first, as in SQL. */
  id: number;
  site: string;
  type: string;
  /** As stored: lowercased, accents kept. */
  term: string;
}

/** The pages a search covers: `''` for every site or every type. */
export interface TypoScope {
  site: string;
  type: string;
}

/** What the vocabulary says about one looked-up word, as the search statement's `c` row says it. */
export interface TypoLookupResult {
  /** A word of the scope contains it (accents and case aside): its pages can be found as typed. */
  present: boolean;
  /** Vocabulary words it may have been meant as, best first; empty when it is itself a word of the scope. */
  candidates: string[];
}

// FTS5's bm25 constants (sqlite/ext/fts5/fts5_aux.c).
const K1 = 1.2;
const B = 0.75;

/** The words of one site and type: for each trigram, the positions (in id order) of the words holding it, once per occurrence. */
type Postings = Map<string, number[]>;

/**
 * The typo candidates of a vocabulary, found in memory: for each word looked up, the same words in the same order as
 * the search statement's SQL lookup over `search_vocab` (FTS5, `trigram` tokenizer) gives, so `chooseCorrections`
 * chooses the same corrections.
 *
 * That lookup ranks the words sharing a trigram with the misspelling by FTS5's bm25 (statistics over the whole table,
 * every site and type; ties by row id) and keeps the best `CANDIDATES` of the scope. This index keeps, per site and
 * type, an inverted list per trigram, and the table's statistics, and computes the same scores in the same order of
 * floating-point operations (term at a time, phrases in the expression's order), so equal scores stay equal and the
 * order is the one SQL gives. Why trigrams rather than deletes: docs/decisions.md, "Typo candidates in memory".
 */
export class TypoIndex {
  private readonly terms: string[] = [];
  private readonly folded: string[] = [];
  /** Trigrams per word: FTS5's size of the row. */
  private readonly sizes: number[] = [];
  /** Rows holding each trigram, over the whole table (FTS5's `nHit` for a one-trigram phrase). */
  private readonly hits = new Map<string, number>();
  /** Positions of each stored term, for "is the word itself in the scope". */
  private readonly byTerm = new Map<string, number[]>();
  private readonly scopes: { site: string; type: string; postings: Postings }[] = [];
  private readonly scopeOf: number[] = [];
  private readonly averageSize: number;
  /** Score per position for the lookup under way (reset after each). */
  private readonly scores: Float64Array;

  /** Builds the index from the vocabulary's rows, in any order. */
  constructor(entries: Iterable<VocabularyEntry>) {
    const rows = [...entries].sort((a, b) => a.id - b.id);
    const scopeIndex = new Map<string, number>();
    let total = 0;
    rows.forEach((row, at) => {
      const key = `${row.site}\u0000${row.type}`;
      let s = scopeIndex.get(key);
      if (s === undefined) {
        scopeIndex.set(key, (s = this.scopes.length));
        this.scopes.push({ site: row.site, type: row.type, postings: new Map() });
      }
      const folded = foldWord(row.term);
      const grams = trigramsOf(folded);
      this.terms.push(row.term);
      this.folded.push(folded);
      this.sizes.push(grams.length);
      this.scopeOf.push(s);
      total += grams.length;
      const same = this.byTerm.get(row.term);
      if (same) same.push(at);
      else this.byTerm.set(row.term, [at]);
      const postings = this.scopes[s]!.postings;
      const seen = new Set<string>();
      for (const g of grams) {
        const list = postings.get(g);
        if (list) list.push(at);
        else postings.set(g, [at]);
        if (!seen.has(g)) seen.add(g), this.hits.set(g, (this.hits.get(g) ?? 0) + 1);
      }
    });
    this.averageSize = total / rows.length;
    this.scores = new Float64Array(rows.length);
  }

  /** Words in the index (rows of the vocabulary table, a word once per site and type it occurs in). */
  get size(): number {
    return this.terms.length;
  }

  /**
   * The lookup the search statement makes for one word (`lookup` from `correctionLookups`), within `scope`: whether
   * it is present, and unless it is itself a word there, its `limit` nearest words by shared trigrams.
   */
  lookup(lookup: CorrectionLookup, scope: TypoScope, limit: number = CANDIDATES): TypoLookupResult {
    const scopes = this.scopes.filter((s) => (!scope.site || s.site === scope.site) && (!scope.type || s.type === scope.type));
    const present = this.contains(foldWord(lookup.term), scopes);
    const known = present && (this.byTerm.get(lookup.term) ?? []).some((at) => scopes.includes(this.scopes[this.scopeOf[at]!]!));
    return { present, candidates: known ? [] : this.nearest(phrasesOf(lookup.near), scopes, limit) };
  }

  /** Whether a word of the scopes contains `word` (≥ 3 letters): read through its rarest trigram. */
  private contains(word: string, scopes: TypoIndex['scopes']): boolean {
    const grams = trigramsOf(word);
    if (!grams.length) return false;
    const rarest = grams.reduce((a, b) => ((this.hits.get(a) ?? 0) <= (this.hits.get(b) ?? 0) ? a : b));
    return scopes.some((s) => (s.postings.get(rarest) ?? []).some((at) => this.folded[at]!.includes(word)));
  }

  /**
   * The `limit` words of the scopes with the best bm25 for `phrases` (any of them), ties by row id: FTS5's
   * `fts5Bm25Function`, with its operations in its order so that the scores are the same doubles.
   */
  private nearest(phrases: string[], scopes: TypoIndex['scopes'], limit: number): string[] {
    const touched: number[] = [];
    const rows = this.terms.length;
    for (const phrase of phrases) {
      const hits = this.hits.get(phrase) ?? 0;
      let idf = Math.log((rows - hits + 0.5) / (hits + 0.5));
      if (idf <= 0.0) idf = 1e-6;
      for (const s of scopes) {
        const list = s.postings.get(phrase);
        if (!list) continue;
        for (let i = 0; i < list.length; ) {
          const at = list[i]!;
          let freq = 0;
          while (list[i] === at) freq++, i++;
          const size = this.sizes[at]!;
          if (this.scores[at] === 0) touched.push(at);
          this.scores[at] = this.scores[at]! + idf * ((freq * (K1 + 1.0)) / (freq + K1 * (1 - B + (B * size) / this.averageSize)));
        }
      }
    }
    const best = topByScore(touched, this.scores, limit).map((at) => this.terms[at]!);
    for (const at of touched) this.scores[at] = 0;
    return best;
  }
}

/** The `limit` positions with the highest score, ties by position (row id), best first; a bounded heap. */
function topByScore(positions: number[], scores: Float64Array, limit: number): number[] {
  // `worse(a, b)`: a ranks after b.
  const worse = (a: number, b: number) => scores[a]! < scores[b]! || (scores[a] === scores[b] && a > b);
  const heap: number[] = [];
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let w = i;
      if (l < heap.length && worse(heap[l]!, heap[w]!)) w = l;
      if (r < heap.length && worse(heap[r]!, heap[w]!)) w = r;
      if (w === i) return;
      [heap[i], heap[w]] = [heap[w]!, heap[i]!];
      i = w;
    }
  };
  for (const at of positions) {
    if (heap.length < limit) {
      heap.push(at);
      for (let i = heap.length - 1, p = (i - 1) >> 1; i > 0 && worse(heap[i]!, heap[p]!); i = p, p = (i - 1) >> 1) [heap[i], heap[p]] = [heap[p]!, heap[i]!];
    } else if (limit > 0 && worse(heap[0]!, at)) {
      heap[0] = at;
      down(0);
    }
  }
  return heap.sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0));
}

/** The trigrams FTS5's `trigram` tokenizer makes of a folded word: every run of three characters (code points), in order. */
function trigramsOf(word: string): string[] {
  const chars = [...word];
  const grams: string[] = [];
  for (let i = 0; i + 3 <= chars.length; i++) grams.push(chars[i]! + chars[i + 1]! + chars[i + 2]!);
  return grams;
}

/** The quoted phrases of a lookup's `near` expression (`"abc" OR "bcd" …`), in order. */
function phrasesOf(near: string): string[] {
  return [...near.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => foldWord(m[1]!.replace(/""/g, '"')));
}
