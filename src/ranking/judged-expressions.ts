/**
 * A judged query's words as full-text expressions: the words as typed for every type searched, and for each group of
 * types its query was corrected in, what the corrections add, matched in those types only (their scope words). A page
 * is found by what its own type's judgement says, so a query without a type is the union of its searches in each type
 * and `type=` only narrows, in one expression (docs/ranking.md).
 */
import { inAnyScope, inScope, siteWord, tagWord, typeWord } from '../db/scope.js';
import type { CorrectionGroup, JudgedQuery, SearchScope } from './types.js';

/** The groups of the types a search covers: every group without a type; with one, its group alone. */
export function groupsSearched(query: JudgedQuery, scope: Pick<SearchScope, 'type'>): readonly CorrectionGroup[] {
  return scope.type ? query.groups.filter((g) => g.types.includes(scope.type)) : query.groups;
}

/** What keeps a group's clause to the pages it is for (SQL to append to the clause, or `''`). */
export type Restriction = (group: CorrectionGroup) => string;

/**
 * A group's clause matched in the group's types (their scope words), unless the search is of one type (the group is
 * that type's, and the type's scope word is on the whole expression already) or the group is every type's (a site of
 * one type, or a word every type corrects alike), where no page is of another type.
 */
export function inTheirTypes(scope: Pick<SearchScope, 'type' | 'types'>): Restriction {
  return (group) => {
    const everyType = scope.types.every((type) => group.types.includes(type));
    return scope.type || everyType ? '' : ` AND ${inAnyScope(group.types.map(typeWord))}`;
  };
}

/** A group's clause matched anywhere: in a table without scope words (titles, headings), whose rows are the candidates'. */
export const anywhere: Restriction = () => '';

/** What each word stands for besides itself: its synonyms and, in a group's types, its corrections. */
export function meaning(query: Pick<JudgedQuery, 'synonyms'>, group?: CorrectionGroup): Map<string, string[]> {
  const meant = new Map([...query.synonyms].map(([word, alike]) => [word, [...alike]]));
  for (const [word, fixes] of group?.corrections ?? []) meant.set(word, [...(meant.get(word) ?? []), ...fixes]);
  return meant;
}

/** Every word the corrections of a group put in the query's place. */
export function correctionWords(group: CorrectionGroup): string[] {
  return [...group.corrections.values()].flat();
}

/**
 * An expression of the words as typed (`typed`, its phrases) and, for each group of `groups`, the phrases its
 * corrections add (`added(group)`, those not already typed: a phrase twice would count twice in bm25), each group's
 * kept to its pages by `restrict`.
 */
export function judgedPhrases(
  typed: readonly string[],
  groups: readonly CorrectionGroup[],
  added: (group: CorrectionGroup) => readonly string[],
  restrict: Restriction,
): string {
  const clauses = groups.flatMap((group) => {
    const extra = added(group).filter((phrase) => !typed.includes(phrase));
    if (!extra.length) return [];
    const where = restrict(group);
    return [where ? `(${extra.join(' OR ')})${where}` : extra.join(' OR ')];
  });
  return [typed.join(' OR '), ...clauses.map((c) => `(${c})`)].filter(Boolean).join(' OR ');
}

/**
 * An expression that each group's pages match by its own (`ofGroup(group)`, kept to them by `restrict`), and every page
 * by `typed`: for pages that must hold a set of words (every word of the query), where a page of a corrected type may
 * hold the correction instead.
 */
export function judgedAll(typed: string, groups: readonly CorrectionGroup[], ofGroup: (group: CorrectionGroup) => string, restrict: Restriction): string {
  const clauses = groups.map((group) => {
    const where = restrict(group);
    return where ? `(${ofGroup(group)})${where}` : ofGroup(group);
  });
  return [typed, ...clauses].map((c) => `(${c})`).join(' OR ');
}

/** `core` within the search's site, type and tags (their scope words), or as it is when the search has none. */
export function scoped(core: string, scope: Pick<SearchScope, 'site' | 'type' | 'tags'>): string {
  const words = [...(scope.site ? [siteWord(scope.site)] : []), ...(scope.type ? [typeWord(scope.type)] : []), ...scope.tags.map(tagWord)];
  return words.length ? [`(${core})`, ...words.map(inScope)].join(' AND ') : core;
}
