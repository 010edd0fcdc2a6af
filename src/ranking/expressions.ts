/**
 * The full-text expressions a ranking matches pages by, built from a query's terms: every word of it, any of them, the
 * informative ones and the names its words make together, each word standing for itself or what else it means (its
 * synonyms, the corrections of a misspelling). Every term is quoted (SPEC.md's rule 3: operators are plain words) and
 * the last is a prefix; nothing the reader typed is ever SQL.
 */
import { codePointLength } from '../text/code-points.js';
import { isFiller } from './filler.js';
import type { TermsForm } from './types.js';

const quote = (term: string) => `"${term}"`;

/**
 * A last word shorter than this is matched as a whole word, not as a prefix: `"a"*` expands to every word that starts
 * with "a" (a tenth of the vocabulary), which made one request cost twenty ordinary ones and stalled a Node server
 * under a handful of such queries. What counts is the word FTS5 applies the `*` to ({@link prefixLength}), so
 * punctuation (`zzq .a`, `svelte-k`) cannot bring a one-letter prefix back. The documented expression
 * ({@link toFtsQuery}) keeps its shape.
 */
export const MIN_PREFIX_LENGTH = 2;

/**
 * The last term, by prefix when the word FTS5 applies the `*` to is long enough to be one. That is the last word its
 * tokenizer finds in the term, not the term: `".a"*`, `"x-a"*` and `"svelte-k"*` end in a one-letter prefix.
 */
function lastTerm(term: string): string {
  return prefixLength(term) >= MIN_PREFIX_LENGTH ? `${quote(term)}*` : quote(term);
}

/**
 * How many characters the prefix of `"term"*` has for FTS5: those of the term's last word, without the combining marks
 * `remove_diacritics` drops (`e\u0301` is the prefix `e`).
 */
export function prefixLength(term: string): number {
  return codePointLength((term.split(WORD_BREAKS).filter(Boolean).at(-1) ?? '').replace(COMBINING, ''));
}

const COMBINING = /\p{Mn}/gu;

/**
 * Every term, the last one by prefix: the documented expression ({@link toFtsQuery}) over these terms, except that a
 * last term ending in a one-character word is a whole word ({@link MIN_PREFIX_LENGTH}).
 */
export function allTermsMatch(terms: readonly string[]): string {
  return [...terms.slice(0, -1).map(quote), lastTerm(terms[terms.length - 1]!)].join(' ');
}

/**
 * Every term, with each misspelled one standing for itself or its corrections: `"cahce"` becomes
 * `("cahce" OR "cache")`, so pages with the corrected word rank as matching it, beside the query's other words.
 */
export function correctedTermsMatch(terms: readonly string[], corrections: ReadonlyMap<string, readonly string[]>): string {
  return everyTerm(terms.map((term, i) => ({ term, last: i === terms.length - 1 })), corrections);
}

/** Whether the term at `i` of `terms` is the one typed last, still being typed: never in a reduced question. */
const typedLast = (terms: readonly unknown[], i: number, form: TermsForm) => form === 'typed' && i === terms.length - 1;

/** Every one of the terms (AND), the last typed by prefix, each misspelled one or its corrections. */
function everyTerm(terms: { term: string; last: boolean }[], corrections: ReadonlyMap<string, readonly string[]>): string {
  return terms
    .map(({ term, last }) => {
      const self = last ? lastTerm(term) : quote(term);
      const fixes = corrections.get(term);
      return fixes?.length ? `(${[self, ...fixes.map(quote)].join(' OR ')})` : self;
    })
    .join(' AND ');
}

/**
 * Any of the terms, each once (a term repeated in an OR counts twice in bm25), the last by prefix. A punctuated term
 * (`client:load`, `astro.config.mjs`, `@scope/name`, `--flag`) stands for its words here: as a phrase it is what the
 * strict step already looked for, and when no page has that phrase, pages with its words are the answer.
 */
export function anyTermMatch(terms: readonly string[], extra: readonly string[] = []): string {
  const words = terms.flatMap((term, i) => {
    const parts = wordsOf(term);
    return parts.map((part, j) => (i === terms.length - 1 && j === parts.length - 1 ? lastTerm(part) : quote(part)));
  });
  return [...new Set([...words, ...extra.map(quote)])].join(' OR ');
}

/**
 * Where FTS5's tokenizer (unicode61 with `remove_diacritics`) splits words: at every character that is not a letter,
 * a number, a private-use character or a combining mark it drops. Punctuation and symbols, and also spacing marks,
 * format characters (zero-width space and joiner, soft hyphen) and lone surrogates, which split words as punctuation
 * does (checked against SQLite's own tokenizer).
 */
const WORD_BREAKS = /[^\p{L}\p{N}\p{Co}\p{Mn}]+/u;

/** A term's words as FTS5 reads them: the term itself unless something the tokenizer splits at separates several. */
export function wordsOf(term: string): string[] {
  const parts = term.split(WORD_BREAKS).filter(Boolean);
  return parts.length > 0 ? parts : [term];
}

/** The longest run of query words tried as one identifier (`get static paths` → `getstaticpaths`). */
const MAX_JOINED_WORDS = 4;

/**
 * Adjacent query words written together, as code names them: camelCase and PascalCase identifiers (`getStaticPaths`,
 * `defineConfig`) are one word to the tokenizer, which a reader types as `get static paths`. Every run of 2 to 4
 * letter-and-digit words, the run ending at the last word by prefix (still being typed). snake_case, kebab-case and
 * dotted names need none: the tokenizer already splits them where a reader does.
 */
export function joinedWords(terms: readonly string[], prefix = true): string[] {
  const words = queryWords(terms);
  const joins: string[] = [];
  for (let start = 0; start < words.length; start++) {
    for (let end = start + 2; end <= Math.min(words.length, start + MAX_JOINED_WORDS); end++) {
      const joined = joinedRun(words.slice(start, end), prefix);
      if (joined === undefined) break;
      joins.push(joined);
    }
  }
  return joins;
}

/**
 * The query's words in order, punctuated terms split where the tokenizer splits them; the very last is a prefix when
 * the query is as typed.
 */
function queryWords(terms: readonly string[], form: TermsForm = 'typed'): { word: string; last: boolean }[] {
  return terms.flatMap((term, i) => wordsOf(term).map((word, j, all) => ({ word, last: typedLast(terms, i, form) && j === all.length - 1 })));
}

/** A run of words as one identifier, or undefined when one of them is not a letter-and-digit word of a spaced script. */
function joinedRun(run: { word: string; last: boolean }[], prefix = true): string | undefined {
  if (!run.every(({ word }) => /^[\p{L}\p{N}]+$/u.test(word) && !isUnspaced(word))) return undefined;
  // Names start with a verb often enough (getStaticPaths, useState, isEnabled), but a filler word further on means a
  // question's words ("do i need"), not a name.
  if (run.slice(1).some(({ word }) => isFiller(word))) return undefined;
  const joined = run.map(({ word }) => word).join('');
  return prefix && run.at(-1)!.last ? lastTerm(joined) : quote(joined);
}

/** Chinese and Japanese words are split by the segmenter, not by the writer: joining them back is not a name. */
const isUnspaced = (word: string) => /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(word);

/**
 * The pages a coverage-ranked search considers: those holding any informative word of the query ({@link isFiller}
 * words left out, unless the query has nothing else), or a run of its words written as one identifier, or a
 * correction. Each phrase once.
 */
export function coverageMatch(terms: readonly string[], extra: readonly string[] = [], corrections: ReadonlyMap<string, readonly string[]> = new Map()): string {
  return coveragePhrases(terms, extra, corrections).join(' OR ');
}

/**
 * The phrases of {@link coverageMatch}, each once. A reduced question's words (`form`) are each whole and no longer
 * neighbours: none is a prefix, and no run of them is a name.
 */
export function coveragePhrases(
  terms: readonly string[],
  extra: readonly string[] = [],
  corrections: ReadonlyMap<string, readonly string[]> = new Map(),
  form: TermsForm = 'typed',
): string[] {
  const words = queryWords(terms, form);
  const informative = words.filter(({ word }) => !isFiller(word));
  const phrases = (informative.length ? informative : words).map(({ word, last }) => (last ? lastTerm(word) : quote(word)));
  // A punctuated term (`Astro.locals`, `client:load`) is a name as typed: as a phrase it weighs what it is, a rare
  // pair, beside its words.
  const names = terms.flatMap((term, i) => (wordsOf(term).length > 1 ? [typedLast(terms, i, form) ? lastTerm(term) : quote(term)] : []));
  // Joined words as whole words only: a rare identifier that merely starts with them (`content coll` and
  // ContentCollectionTypeMismatchError) would outweigh the pages about the words themselves.
  const joined = form === 'typed' ? [terms, ...correctedQueries(terms, corrections)].flatMap((meant) => joinedWords(meant, false)) : [];
  return [...new Set([...names, ...phrases, ...joined, ...extra.map(quote)])];
}

/**
 * The query as it was meant, once per correction of each misspelled word (the other words as typed): a name typed with
 * a misspelled word (`webauthn acount`) is the name of its correction (`WebAuthnAccount`), which the words typed,
 * joined, never spell.
 */
function correctedQueries(terms: readonly string[], corrections: ReadonlyMap<string, readonly string[]>): (readonly string[])[] {
  return terms.flatMap((term, i) => (corrections.get(term) ?? []).map((fix) => terms.map((t, j) => (j === i ? fix : t))));
}

/**
 * Every informative word of the query ({@link isFiller} words decide nothing), or all its words written as one
 * identifier: a page that holds the whole query, the ranking's strongest evidence beside bm25 (docs/ranking.md,
 * "Coverage"). `meant`: what each word also stands for (its synonyms and corrections), any of which it may be held as;
 * `corrections` alone also spell the identifier (as in {@link coverageMatch}).
 */
export function everyWordMatch(
  terms: readonly string[],
  meant: ReadonlyMap<string, readonly string[]> = new Map(),
  corrections: ReadonlyMap<string, readonly string[]> = new Map(),
  form: TermsForm = 'typed',
): string {
  const every = everyTerm(everyWordParts(terms, form).informative, meant);
  const names = [...new Set([terms, ...correctedQueries(terms, corrections)].map((query) => everyWordParts(query, form).whole))].filter(Boolean);
  return names.length ? [`(${every})`, ...names].join(' OR ') : every;
}

/**
 * The terms a page must hold for every word (the informative ones, else all), and the query as one identifier (not
 * for a reduced question, whose words are not neighbours).
 */
function everyWordParts(terms: readonly string[], form: TermsForm): { informative: { term: string; last: boolean }[]; whole: string | undefined } {
  const all = terms.map((term, i) => ({ term, last: typedLast(terms, i, form) }));
  const informative = all.filter(({ term }) => wordsOf(term).some((word) => !isFiller(word)));
  const words = queryWords(terms, form);
  const named = form === 'typed' && words.length >= 2 && words.length <= MAX_JOINED_WORDS;
  return { informative: informative.length ? informative : all, whole: named ? joinedRun(words) : undefined };
}

/** Words or phrases as an expression matching any of them (each quoted: they hold no quote, `synonyms` checks). */
export function anyOf(phrases: readonly string[]): string {
  return [...new Set(phrases)].map(quote).join(' OR ');
}
