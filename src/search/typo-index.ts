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

/** One site and type's words: for each trigram (by id), the positions of its words, once per occurrence, in id order. */
interface Scope {
  site: string;
  type: string;
  /** `positions[starts[g]] … positions[starts[g + 1] - 1]`: trigram `g`'s list. */
  starts: Int32Array;
  positions: Int32Array;
}

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
 *
 * Built once per process or isolate (a cold Worker pays for it), so the build works on numbers: each character gets a
 * small id, each trigram a number made of three of them, and each list is one slice of an `Int32Array`.
 */
export class TypoIndex {
  private readonly terms: string[];
  private readonly folded: string[];
  /**
   * Per word, the part of bm25's denominator that depends on the word alone, `k1 * (1 - b + b * size / average
   * size)` (size: its trigrams), worked out as FTS5 works it out, so the scores are the same doubles.
   */
  private readonly lengthNorms: Float64Array;
  /** Rows holding each trigram (by id), over the whole table: FTS5's `nHit` for a one-trigram phrase. */
  private readonly hits: Int32Array;
  private readonly characters = new Map<number, number>();
  /**
   * Trigram id by its characters' ids, `(a * n + b) * n + c` for `n` characters: a small integer (V8 hashes those
   * fastest) for up to 1,290 characters, exact up to 2^17.
   */
  private readonly trigrams = new Map<number, number>();
  private alphabet = 0;
  private readonly scopes: Scope[] = [];
  /** Score per position for the lookup under way (reset after each). */
  private readonly scores: Float64Array;

  /** Builds the index from the vocabulary's rows, in any order. */
  constructor(entries: Iterable<VocabularyEntry>) {
    const rows = [...entries].sort((a, b) => a.id - b.id);
    const count = rows.length;
    this.terms = rows.map((r) => r.term);
    // Stored terms are lowercase already: only a word with a letter past ASCII has accents to remove.
    this.folded = this.terms.map((t) => (/[^\x00-\x7f]/.test(t) ? foldWord(t) : t));
    // Every word's characters as ids, one array for all (`charStarts[i]` … `charStarts[i + 1]`). Typed arrays sized
    // up front: the build is a cold Worker's first search, and growing arrays of numbers was a third of it, in GC.
    const charStarts = new Int32Array(count + 1);
    let length = 0;
    for (let i = 0; i < count; i++) length += this.folded[i]!.length;
    const chars = new Int32Array(length);
    let written = 0;
    for (let i = 0; i < count; i++) {
      const word = this.folded[i]!;
      for (let k = 0; k < word.length; k++) {
        const c = word.codePointAt(k)!;
        if (c > 0xffff) k++;
        let id = this.characters.get(c);
        if (id === undefined) this.characters.set(c, (id = this.characters.size));
        chars[written++] = id;
      }
      charStarts[i + 1] = written;
    }
    this.alphabet = this.characters.size;
    // Each word's trigram ids; the table's statistics.
    const sizes = new Int32Array(count);
    const grams = new Int32Array(written);
    const gramStarts = new Int32Array(count + 1);
    const hits = new Int32Array(written);
    const lastRow = new Int32Array(written).fill(-1);
    let total = 0;
    let filled = 0;
    for (let i = 0; i < count; i++) {
      const from = charStarts[i]!;
      const size = Math.max(0, charStarts[i + 1]! - from - 2);
      for (let k = 0; k < size; k++) {
        const g = this.trigramId(chars[from + k]!, chars[from + k + 1]!, chars[from + k + 2]!, true)!;
        grams[filled++] = g;
        if (lastRow[g] !== i) (lastRow[g] = i), hits[g]!++;
      }
      gramStarts[i + 1] = filled;
      sizes[i] = size;
      total += size;
    }
    this.hits = hits.slice(0, this.trigrams.size);
    // Per site and type, the lists: counted, then filled, in position order.
    const scopeOf = new Int32Array(count);
    const scopeIds = new Map<string, number>();
    for (let i = 0; i < count; i++) {
      const row = rows[i]!;
      const key = `${row.site}\u0000${row.type}`;
      let id = scopeIds.get(key);
      if (id === undefined) {
        scopeIds.set(key, (id = this.scopes.length));
        this.scopes.push({ site: row.site, type: row.type, starts: new Int32Array(this.hits.length + 1), positions: new Int32Array(0) });
      }
      scopeOf[i] = id;
      const { starts } = this.scopes[id]!;
      for (let k = gramStarts[i]!; k < gramStarts[i + 1]!; k++) starts[grams[k]! + 1]!++;
    }
    const next = this.scopes.map((scope) => {
      for (let g = 0; g < this.hits.length; g++) scope.starts[g + 1]! += scope.starts[g]!;
      scope.positions = new Int32Array(scope.starts[this.hits.length]!);
      return scope.starts.slice(0, this.hits.length);
    });
    for (let i = 0; i < count; i++) {
      const scope = this.scopes[scopeOf[i]!]!;
      const at = next[scopeOf[i]!]!;
      for (let k = gramStarts[i]!; k < gramStarts[i + 1]!; k++) scope.positions[at[grams[k]!]!++] = i;
    }
    const averageSize = total / count;
    this.lengthNorms = new Float64Array(count);
    for (let i = 0; i < count; i++) this.lengthNorms[i] = K1 * (1 - B + (B * sizes[i]!) / averageSize);
    this.scores = new Float64Array(count);
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
    const word = foldWord(lookup.term);
    const holding = this.holding(word, scopes);
    const present = holding.length > 0;
    const known = holding.some((at) => this.terms[at] === lookup.term);
    return { present, candidates: known ? [] : this.nearest(phrasesOf(lookup.near), scopes, limit) };
  }

  /** The id of a trigram of character ids (`add`: giving it one when it has none). */
  private trigramId(a: number, b: number, c: number, add = false): number | undefined {
    const n = this.alphabet;
    const key = (a * n + b) * n + c;
    let id = this.trigrams.get(key);
    if (id === undefined && add) this.trigrams.set(key, (id = this.trigrams.size));
    return id;
  }

  /** The ids of a folded text's trigrams, in order (undefined for one no word has). */
  private trigramIds(text: string): (number | undefined)[] {
    const ids = [...text].map((c) => this.characters.get(c.codePointAt(0)!));
    const out: (number | undefined)[] = [];
    for (let k = 0; k + 2 < ids.length; k++) {
      const [a, b, c] = [ids[k], ids[k + 1], ids[k + 2]];
      out.push(a === undefined || b === undefined || c === undefined ? undefined : this.trigramId(a, b, c));
    }
    return out;
  }

  /** The positions of the scopes' words containing `word` (≥ 3 letters): read through its rarest trigram. */
  private holding(word: string, scopes: Scope[]): number[] {
    const ids = this.trigramIds(word);
    if (!ids.length || ids.includes(undefined)) return [];
    const rarest = (ids as number[]).reduce((a, b) => (this.hits[a]! <= this.hits[b]! ? a : b));
    const found: number[] = [];
    for (const s of scopes) {
      for (let k = s.starts[rarest]!; k < s.starts[rarest + 1]!; k++) {
        const at = s.positions[k]!;
        if (this.folded[at]!.includes(word) && found[found.length - 1] !== at) found.push(at);
      }
    }
    return found;
  }

  /**
   * The `limit` words of the scopes with the best bm25 for `phrases` (any of them), ties by row id: FTS5's
   * `fts5Bm25Function`, with its operations in its order so that the scores are the same doubles.
   */
  private nearest(phrases: string[], scopes: Scope[], limit: number): string[] {
    const touched: number[] = [];
    const rows = this.terms.length;
    const { scores, lengthNorms } = this;
    for (const phrase of phrases) {
      const [g, more] = this.trigramIds(phrase);
      if (g === undefined || more !== undefined) continue;
      const hits = this.hits[g]!;
      let idf = Math.log((rows - hits + 0.5) / (hits + 0.5));
      if (idf <= 0.0) idf = 1e-6;
      for (const { starts, positions } of scopes) {
        const end = starts[g + 1]!;
        for (let k = starts[g]!; k < end; ) {
          const at = positions[k]!;
          let freq = 0;
          while (k < end && positions[k] === at) freq++, k++;
          if (scores[at] === 0) touched.push(at);
          scores[at] = scores[at]! + idf * ((freq * (K1 + 1.0)) / (freq + lengthNorms[at]!));
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
      continue;
    }
    // Most words score below the worst kept: one comparison each, inline (positions come in no order, so a tie with
    // the worst kept still needs the row-id check).
    const score = scores[at]!;
    const floor = scores[heap[0]!]!;
    if (limit > 0 && (score > floor || (score === floor && at < heap[0]!))) {
      heap[0] = at;
      down(0);
    }
  }
  return heap.sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0));
}

/** The quoted phrases of a lookup's `near` expression (`"abc" OR "bcd" …`), in order. */
function phrasesOf(near: string): string[] {
  return [...near.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => foldWord(m[1]!.replace(/""/g, '"')));
}
