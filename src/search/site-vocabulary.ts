import { foldWord } from '../text/fold.js';
import { candidateTrigrams, trigramsOf } from './typos.js';

/** A row of `search_vocab_packed` (src/db/schema.ts has its format). */
export interface PackedVocabularyRow {
  site: string;
  part: number;
  /** The site's types, a JSON array. */
  types: string;
  /** `<word> <i>,<j>…` per line: the word and the positions in `types` of the types it is in. */
  words: string;
}

/** Each site's types and word lines, its packed rows read in order. */
function packedSites(rows: readonly PackedVocabularyRow[]): Map<string, { types: string[]; lines: string[] }> {
  const bySite = new Map<string, PackedVocabularyRow[]>();
  for (const row of rows) bySite.set(row.site, [...(bySite.get(row.site) ?? []), row]);
  const sites = new Map<string, { types: string[]; lines: string[] }>();
  for (const [site, parts] of bySite) {
    parts.sort((a, b) => Number(a.part) - Number(b.part));
    sites.set(site, { types: JSON.parse(parts[0]!.types) as string[], lines: parts.flatMap((p) => (p.words ? p.words.split('\n') : [])) });
  }
  return sites;
}

/** Every site's words as one site's: each word once, in the types any site has it in. */
function mergedSites(packed: Map<string, { types: string[]; lines: string[] }>): SiteWords {
  const types = [...new Set([...packed.values()].flatMap((site) => site.types))].sort();
  const typesOf = new Map<string, Set<number>>();
  for (const site of packed.values()) {
    for (const line of site.lines) {
      const space = line.lastIndexOf(' ');
      const term = line.slice(0, space);
      const positions = typesOf.get(term) ?? new Set<number>();
      for (const i of line.slice(space + 1).split(',')) positions.add(types.indexOf(site.types[Number(i)]!));
      typesOf.set(term, positions);
    }
  }
  const lines = [...typesOf].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([term, positions]) => `${term} ${[...positions].sort((a, b) => a - b).join(',')}`);
  return new SiteWords(types, lines);
}

/** Every word of the packed rows with its site and types, in the rows' order: what they hold, for checks. */
export function unpackVocabulary(rows: readonly PackedVocabularyRow[]): { site: string; term: string; types: string[] }[] {
  return [...packedSites(rows)].flatMap(([site, { types, lines }]) =>
    lines.map((line) => {
      const space = line.lastIndexOf(' ');
      return { site, term: line.slice(0, space), types: line.slice(space + 1).split(',').map((i) => types[Number(i)]!) };
    }),
  );
}

/** What a type's vocabulary says about one word of a query. */
export interface WordInType {
  /** The word itself is a word of the type (as stored: lowercased, accents kept). */
  known: boolean;
  /** Words of the type it may have been meant as, most alike first (none when it is known). */
  candidates: string[];
}

/** Candidates kept per word and type, most alike first, before the edit-distance check chooses among them. */
export const CANDIDATES = 40;

// bm25's constants, as FTS5 sets them (sqlite/ext/fts5/fts5_aux.c): words are ranked by the trigrams they share with
// the misspelling, a rare trigram counting for more, a long word for less.
const K1 = 1.2;
const B = 0.75;

/** One site's words, each with the types it is in, and an inverted list per trigram. */
class SiteWords {
  readonly types: string[];
  readonly terms: string[] = [];
  private readonly folded: string[] = [];
  /** Per word, the types it is in: bit `i` of word `w` is bit `i % 32` of `typeBits[w * stride + (i >> 5)]`. */
  private typeBits = new Uint32Array(0);
  private readonly stride: number;
  private readonly byTerm = new Map<string, number>();
  /** The words of each trigram, in word order (a word once per occurrence). */
  private readonly postings = new Map<string, number[]>();
  private lengthNorms = new Float64Array(0);

  constructor(types: string[], lines: string[]) {
    this.types = types;
    this.stride = Math.max(1, Math.ceil(types.length / 32));
    this.typeBits = new Uint32Array(lines.length * this.stride);
    let trigramsInAll = 0;
    const sizes: number[] = [];
    for (const line of lines) {
      const space = line.lastIndexOf(' ');
      const term = line.slice(0, space);
      const word = this.terms.length;
      this.terms.push(term);
      this.byTerm.set(term, word);
      for (const position of line.slice(space + 1).split(',')) this.setType(word, Number(position));
      // Stored words are lowercase already: only a word with a letter past ASCII has accents to remove.
      const folded = /[^\x00-\x7f]/.test(term) ? foldWord(term) : term;
      this.folded.push(folded);
      const trigrams = trigramsOf(folded);
      for (const trigram of trigrams) {
        const list = this.postings.get(trigram);
        if (list) list.push(word);
        else this.postings.set(trigram, [word]);
      }
      sizes.push(trigrams.length);
      trigramsInAll += trigrams.length;
    }
    const average = trigramsInAll / Math.max(1, sizes.length);
    this.lengthNorms = Float64Array.from(sizes, (size) => K1 * (1 - B + (B * size) / average));
  }

  private setType(word: number, position: number): void {
    this.typeBits[word * this.stride + (position >> 5)]! |= 1 << (position & 31);
  }

  /** Whether word `word` is in the type at `position` of {@link types}. */
  inType(word: number, position: number): boolean {
    return (this.typeBits[word * this.stride + (position >> 5)]! & (1 << (position & 31))) !== 0;
  }

  /** The position of `term` in the words, if it is one. */
  wordOf(term: string): number | undefined {
    return this.byTerm.get(term);
  }

  /**
   * Every word sharing a trigram with `folded` (its own, and for a short word those of its letters swapped: see
   * `candidateTrigrams`), with its score: each shared trigram's bm25, rarer trigrams and shorter words counting more.
   */
  alike(folded: string): Map<number, number> {
    const scores = new Map<number, number>();
    const words = this.terms.length;
    for (const trigram of candidateTrigrams(folded)) {
      const list = this.postings.get(trigram);
      if (!list) continue;
      // A trigram's list holds a word once per occurrence: its distinct words are counted for the idf.
      let distinct = 0;
      for (let k = 0; k < list.length; k++) if (k === 0 || list[k] !== list[k - 1]) distinct++;
      let idf = Math.log((words - distinct + 0.5) / (distinct + 0.5));
      if (idf <= 0) idf = 1e-6;
      for (let k = 0; k < list.length; ) {
        const word = list[k]!;
        let frequency = 0;
        while (k < list.length && list[k] === word) frequency++, k++;
        scores.set(word, (scores.get(word) ?? 0) + idf * ((frequency * (K1 + 1)) / (frequency + this.lengthNorms[word]!)));
      }
    }
    return scores;
  }
}

/**
 * The vocabulary of every site of an index, in memory: what a search judges a query's words by before it runs (which
 * word a type knows, which words of the type a misspelled one may have been meant as). Built once per process or
 * isolate and vocabulary generation from the packed rows; a type's answer is the same whether the search asked for
 * that type or for every type at once, so `type=` only narrows.
 */
export class SiteVocabulary {
  private readonly sites = new Map<string, SiteWords>();
  private readonly packed: Map<string, { types: string[]; lines: string[] }>;
  /** Every site's words together, for a search of every site (`site: ''`), built when first asked. */
  private everySite?: SiteWords;

  constructor(rows: readonly PackedVocabularyRow[]) {
    this.packed = packedSites(rows);
    for (const [site, { types, lines }] of this.packed) this.sites.set(site, new SiteWords(types, lines));
  }

  /** The words a search of `site` judges by: that site's, or every site's for a search of every site (`''`). */
  private wordsOf(site: string): SiteWords | undefined {
    if (site) return this.sites.get(site);
    if (this.sites.size <= 1) return this.sites.values().next().value;
    this.everySite ??= mergedSites(this.packed);
    return this.everySite;
  }

  /** Words held, counted once per site. */
  get size(): number {
    let n = 0;
    for (const words of this.sites.values()) n += words.terms.length;
    return n;
  }

  /**
   * What the vocabulary of each of `types` in `site` says about `word` (lowercase, as a query word is): whether the
   * type knows it, and when it does not, its `limit` most alike words of that type. Every type is answered from one
   * pass over the word's trigrams, so a site of thirty types costs about what a site of one does.
   */
  judge(word: string, site: string, types: readonly string[], limit: number = CANDIDATES): Map<string, WordInType> {
    const answers = new Map<string, WordInType>();
    const words = this.wordsOf(site);
    const positions = types.map((type) => words?.types.indexOf(type) ?? -1);
    const known = words?.wordOf(word);
    const unknown = types.filter((_, i) => positions[i]! < 0 || known === undefined || !words!.inType(known, positions[i]!));
    for (const type of types) if (!unknown.includes(type)) answers.set(type, { known: true, candidates: [] });
    if (!unknown.length) return answers;
    const scores = words ? words.alike(foldWord(word)) : new Map<number, number>();
    // One type keeps its most alike words by a bounded selection; several walk one ordering of every alike word, each
    // type taking its first `limit`: a common trigram touches thousands of words, and filtering them once per type made
    // a site of thirty types cost thirty times the judgement of one.
    const ordered = unknown.length > 1 ? [...scores].sort(moreAlike) : undefined;
    for (const type of unknown) {
      const position = positions[types.indexOf(type)]!;
      const candidates = position < 0 ? [] : ordered ? firstInType(ordered, words!, position, limit) : mostAlike([...scores].filter(([at]) => words!.inType(at, position)), limit);
      answers.set(type, { known: false, candidates: candidates.map((at) => words!.terms[at]!) });
    }
    return answers;
  }
}

/** The order of alike words: the higher score first, ties in the words' order. */
function moreAlike(a: [word: number, score: number], b: [word: number, score: number]): number {
  return b[1] - a[1] || a[0] - b[0];
}

/** The first `limit` words of `ordered` (most alike first) that the type at `position` holds: {@link mostAlike}'s. */
function firstInType(ordered: readonly [word: number, score: number][], words: SiteWords, position: number, limit: number): number[] {
  const found: number[] = [];
  for (const [word] of ordered) {
    if (found.length === limit) break;
    if (words.inType(word, position)) found.push(word);
  }
  return found;
}

/**
 * The `limit` words with the highest scores, most alike first, ties in the words' order (so the same list whichever
 * types are asked together): a bounded selection, as a common trigram touches thousands of words.
 */
function mostAlike(scored: [word: number, score: number][], limit: number): number[] {
  const kept: [number, number][] = [];
  for (const entry of scored) {
    if (kept.length === limit && moreAlike(entry, kept[kept.length - 1]!) >= 0) continue;
    let at = kept.length === limit ? kept.length - 1 : kept.length;
    while (at > 0 && moreAlike(entry, kept[at - 1]!) < 0) at--;
    kept.splice(at, 0, entry);
    if (kept.length > limit) kept.pop();
  }
  return kept.map(([word]) => word);
}
