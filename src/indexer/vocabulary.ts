import { isCorrectable } from '../text/correctable-words.js';
import type { IndexDocument } from './document.js';

/** A word of the vocabulary and the document type it occurs in (a search filtered by type corrects within it). */
export interface VocabularyWord {
  term: string;
  type: string;
}

/** Longest word kept: longer letter runs are identifiers or noise, not words anyone misspells. */
const MAX_WORD_LENGTH = 40;

/**
 * The distinct words, per document type, that typo tolerance may correct a query to (letters only, 4+ long, not
 * CJK), lowercased. Documents are added one at a time, so a streamed push holds words, not documents.
 */
export class Vocabulary {
  private readonly byType = new Map<string, WordSet>();

  add(d: IndexDocument): void {
    let words = this.byType.get(d.type);
    if (!words) this.byType.set(d.type, (words = new WordSet()));
    words.addWordsOf(d.title);
    words.addWordsOf(d.description);
    words.addWordsOf(d.tags);
    words.addWordsOf(d.content);
    words.addWordsOf(d.more ?? '');
  }

  /** Takes a word out (the index holds it already): true when it was there. */
  take(type: string, term: string): boolean {
    return this.byType.get(type)?.words.delete(term) ?? false;
  }

  /** The words, sorted by type then term so pushes are reproducible. */
  words(): VocabularyWord[] {
    return [...this.byType.keys()].sort().flatMap((type) => [...this.byType.get(type)!.words].sort().map((term) => ({ term, type })));
  }
}

/** The vocabulary of a set of documents. */
export function vocabularyOf(documents: Iterable<IndexDocument>): VocabularyWord[] {
  const vocabulary = new Vocabulary();
  for (const d of documents) vocabulary.add(d);
  return vocabulary.words();
}

/**
 * The correctable words of many texts, each once: what `/\p{L}{4,}/gu` finds in them, lowercased, kept when
 * {@link isCorrectable} and at most 40 long.
 *
 * A site's text is millions of words but tens of thousands of distinct ones. Cutting each occurrence out as a
 * lowercased string to look it up was most of what the vocabulary cost (and a quarter of the SQLite thread's CPU), so
 * runs of letters are looked up by their characters where they lie, in a hash table of the runs already seen, and only
 * a run not seen before becomes a string.
 */
export class WordSet {
  readonly words = new Set<string>();
  /** Each run seen, spelled as it is compared: ASCII letters lowercased, other characters as written. */
  private keys: string[] = [];
  private hashes: number[] = [];
  /** Open addressing: index into `keys` + 1, 0 for an empty slot. */
  private slots = new Int32Array(1 << 12);

  addWordsOf(text: string): void {
    walkLetterRuns(text, this);
  }

  /** A run of letters without surrogates, Han or kana, `hash` of its characters as {@link keyCode} spells them. */
  run(text: string, start: number, end: number, hash: number): void {
    const length = end - start;
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    for (let at = this.slots[slot]!; at !== 0; slot = (slot + 1) & mask, at = this.slots[slot]!) {
      if (this.hashes[at - 1] === hash && sameRun(this.keys[at - 1]!, text, start, length)) return;
    }
    const raw = text.slice(start, end);
    this.keys.push(raw.replace(/[A-Z]+/g, (upper) => upper.toLowerCase()));
    this.hashes.push(hash);
    this.slots[slot] = this.keys.length;
    if (this.keys.length * 2 > this.slots.length) this.grow();
    this.word(raw.toLowerCase());
  }

  /** A word found some other way (a run with surrogate pairs), lowercased. */
  word(word: string): void {
    if (word.length <= MAX_WORD_LENGTH && !this.words.has(word) && isCorrectable(word)) this.words.add(word);
  }

  private grow(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    this.hashes.forEach((hash, i) => {
      let slot = hash & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = i + 1;
    });
    this.slots = slots;
  }
}

/** How a run's characters are hashed and compared: ASCII letters lowercased (`| 32`), anything else as it is. */
function keyCode(c: number): number {
  return c < 128 ? c | 32 : c;
}

function sameRun(key: string, text: string, start: number, length: number): boolean {
  if (key.length !== length) return false;
  for (let k = 0; k < length; k++) if (key.charCodeAt(k) !== keyCode(text.charCodeAt(start + k))) return false;
  return true;
}

/** Kinds of UTF-16 code units, as bits: a run of letters ORs together the kinds it holds. */
const OTHER = 0;
const LETTER = 1;
/** A letter of Han, Hiragana or Katakana: a run holding one is never correctable. */
const UNSPACED_LETTER = 2;
/** Half of a surrogate pair: whether it is a letter takes both halves, so its run goes to the regular expression. */
const SURROGATE = 4;
const UNKNOWN = 0xff;

/** The kind of each code unit from 128 up, worked out the first time it is met. */
const kinds = new Uint8Array(0x10000).fill(UNKNOWN);
const LETTER_CHAR = /^\p{L}$/u;
const UNSPACED_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

function kindOf(c: number): number {
  const char = String.fromCharCode(c);
  const kind = c >= 0xd800 && c <= 0xdfff ? SURROGATE : !LETTER_CHAR.test(char) ? OTHER : UNSPACED_SCRIPT.test(char) ? UNSPACED_LETTER : LETTER;
  kinds[c] = kind;
  return kind;
}

const LETTERS = /\p{L}{4,}/gu;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/**
 * Hands `to` each run of 4+ letters in `text` that could be correctable: as its bounds and an FNV-1a hash of its
 * characters as {@link keyCode} spells them when it has no surrogate pair (a run holding a Han or kana letter is
 * skipped), else as each `/\p{L}{4,}/gu` match in it, lowercased. The runs are exactly those that expression finds.
 */
function walkLetterRuns(text: string, to: Pick<WordSet, 'run' | 'word'>): void {
  let start = -1;
  let hash = 0;
  let holds = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 128) {
      const lower = c | 32;
      if (lower >= 97 && lower <= 122) {
        if (start < 0) (start = i), (hash = FNV_OFFSET), (holds = 0);
        hash = Math.imul(hash ^ lower, FNV_PRIME);
        continue;
      }
    } else {
      let kind = kinds[c]!;
      if (kind === UNKNOWN) kind = kindOf(c);
      if (kind !== OTHER) {
        if (start < 0) (start = i), (hash = FNV_OFFSET), (holds = 0);
        hash = Math.imul(hash ^ c, FNV_PRIME);
        holds |= kind;
        continue;
      }
    }
    if (start >= 0) endRun(text, start, i, hash, holds, to);
    start = -1;
  }
  if (start >= 0) endRun(text, start, text.length, hash, holds, to);
}

function endRun(text: string, start: number, end: number, hash: number, holds: number, to: Pick<WordSet, 'run' | 'word'>): void {
  if (holds & SURROGATE) {
    for (const [run] of text.slice(start, end).matchAll(LETTERS)) to.word(run.toLowerCase());
  } else if (end - start >= 4 && !(holds & UNSPACED_LETTER)) {
    to.run(text, start, end, hash);
  }
}
