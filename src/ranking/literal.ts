/**
 * The literal ranking (`ranking: 'fts5'`, or `widen: false`; docs/ranking.md, sections 1 to 4): SPEC.md's query and
 * score, its steps as tiers. The pages holding every word come first (SPEC.md's expression, the last word by prefix),
 * then, with `widen`, those holding every word with a misspelled one corrected in their type, those holding any of the
 * words, and those holding any with the corrections; a page in the first tier that finds it. Within a tier, pages by
 * SPEC.md's score, exactly: bm25 × recency (× the page's boost), every match of the tier scored, so any page of the
 * answer is the same slice of one order. With `ranking: 'fields'` and `widen: false`, titles count on their own beside
 * the page's bm25, as in the coverage ranking.
 *
 * A Worker ships this module only when it is given (`createWorker(options, { rankings: [literalRanking] })`).
 */
import type { Bind } from '../db/types.js';
import { DOCS_TABLE, TABLE, TITLES_TABLE } from '../db/schema.js';
import { allTermsMatch, anyTermMatch, correctedTermsMatch } from './expressions.js';
import { correctionWords, groupsSearched, inTheirTypes, judgedAll, judgedPhrases, meaning, scoped } from './judged-expressions.js';
import {
  answerRows,
  bestTable,
  binder,
  BOOST_FACTOR,
  boundCount,
  columnWeights,
  facetCounts,
  pageRowsTable,
  pageTable,
  placedTiers,
  recencyFactor,
  statementOf,
} from './statement.js';
import type { CorrectionGroup, JudgedQuery, Ranking, SearchScope, StatementRequest } from './types.js';

/** `weights.title` divided by this is how much a title's own bm25 adds with `ranking: 'fields'` (as in coverage). */
const TITLE_WEIGHT_DIVISOR = 20;

/**
 * The tiers, by their fixed numbers: 0 every word as typed, 1 every word with the corrections of the page's type, 2 any
 * word, 3 any word with the corrections. Without `widen`, or without a type corrected, some are absent.
 */
interface Tier {
  tier: 0 | 1 | 2 | 3;
  match: string;
  /** Its words without the search's scope, for the page's snippets (those pages are in it). */
  marked: string;
}

/** Each tier's expression, in the search's scope, and what the type counts count (the whole query judged in every type). */
function tierExpressions(query: JudgedQuery, scope: SearchScope, widen: boolean): { tiers: Tier[]; everyType: string } {
  const { terms } = query;
  const synonyms = [...query.synonyms.values()].flat();
  const every = query.synonyms.size ? correctedTermsMatch(terms, meaning(query)) : allTermsMatch(terms);
  if (!widen) return { tiers: [{ tier: 0, match: scoped(every, scope), marked: every }], everyType: scoped(every, { ...scope, type: '' }) };
  const any = anyTermMatch(terms, synonyms);
  const anyWithFixes = (group: CorrectionGroup) => splitPhrases(anyTermMatch(terms, [...synonyms, ...correctionWords(group)]));
  const groups = groupsSearched(query, scope);
  const restrict = inTheirTypes(scope);
  const tiers: Omit<Tier, 'marked'>[] = [
    { tier: 0, match: every },
    ...(groups.length ? [{ tier: 1 as const, match: judgedAll(every, groups, (group) => correctedTermsMatch(terms, meaning(query, group)), restrict) }] : []),
    { tier: 2, match: any },
    ...(groups.length ? [{ tier: 3 as const, match: judgedPhrases(splitPhrases(any), groups, anyWithFixes, restrict) }] : []),
  ];
  const everyType = query.groups.length ? judgedPhrases(splitPhrases(any), query.groups, anyWithFixes, inTheirTypes({ ...scope, type: '' })) : any;
  return { tiers: tiers.map((t) => ({ ...t, match: scoped(t.match, scope), marked: t.match })), everyType: scoped(everyType, { ...scope, type: '' }) };
}

/** The phrases of an any-word expression (`"a" OR "b"*`). */
function splitPhrases(expression: string): string[] {
  return expression.split(' OR ');
}

/** SPEC.md's literal ranking, its steps as tiers. */
export const literalRanking: Ranking = {
  name: 'literal',
  longQueries: 'first',
  statement(query, scope, request) {
    const { values, bind } = binder();
    const { tiers, everyType } = tierExpressions(query, scope, request.widen);
    const depth = request.offset + request.limit;
    const title = titleScores(query, request, bind);
    const ctes = [...title.ctes, ...tiers.map(({ tier, match }) => tierTable(tier, match, request, depth, title.join, bind))];
    const facets = facetCounts(bind, scope, request, everyType, tiers.at(-1)!.match);
    // A page is in the first tier that finds it.
    const firstFound = tiers.map(({ tier }, i) =>
      `SELECT id, score, ${tier} AS tier FROM tier${tier}${i ? ` WHERE id NOT IN (${tiers.slice(0, i).map((t) => `SELECT id FROM tier${t.tier}`).join(' UNION ALL ')})` : ''}`,
    );
    ctes.push(
      `ranked AS MATERIALIZED (SELECT id, score, tier, tier <= 1 AS holds, row_number() OVER (ORDER BY tier, score, id) AS place FROM (${firstFound.join(' UNION ALL ')}))`,
      placedTiers(),
      pageTable(bind, request),
      pageRowsTable(bind, request, tiers.map((t) => `(${t.marked})`).join(' OR ')),
      bestTable(),
      ...facets.ctes,
    );
    return statementOf(`WITH ${ctes.join(',\n')}\n${answerRows(facets.json)}`, values);
  },
  match(row, misspelled) {
    if (row.tier === 0) return 'all';
    if (row.tier === 2) return 'any';
    return misspelled(row.type) ? 'typo' : row.tier === 1 ? 'all' : 'any';
  },
  strict: (query) => (query.synonyms.size ? correctedTermsMatch(query.terms, meaning(query)) : allTermsMatch(query.terms)),
};

/**
 * The titles' own bm25 with `ranking: 'fields'` (`title_scores`), over any word of the query or a correction: every
 * title matching is scored once, and each tier joins it (`join`), so a title is scored on its own length whichever tier
 * found its page.
 */
function titleScores(query: JudgedQuery, request: StatementRequest, bind: Bind): { ctes: string[]; join: string; weight: number } {
  const weight = request.fieldAware ? request.weights.title / TITLE_WEIGHT_DIVISOR : 0;
  if (weight <= 0) return { ctes: [], join: '', weight: 0 };
  const words = anyTermMatch(query.terms, [...[...query.synonyms.values()].flat(), ...query.groups.flatMap(correctionWords)]);
  return {
    ctes: [`title_scores AS MATERIALIZED (SELECT rowid AS id, bm25(${TITLES_TABLE}) AS bm FROM ${TITLES_TABLE} WHERE ${TITLES_TABLE} MATCH ${bind(words)})`],
    join: ` LEFT JOIN title_scores t ON t.id = f.rowid`,
    weight,
  };
}

/**
 * One tier's best `depth` pages by SPEC.md's score, every match scored (its `search_docs` row read for the day and the
 * boost), with the title's own bm25 added when field-aware.
 */
function tierTable(tier: number, match: string, request: StatementRequest, depth: number, titleJoin: string, bind: Bind): string {
  const title = titleJoin ? ` + ${request.weights.title / TITLE_WEIGHT_DIVISOR} * coalesce(t.bm, 0.0)` : '';
  return `tier${tier} AS MATERIALIZED (SELECT f.rowid AS id, (bm25(${TABLE}, ${columnWeights(request)})${title})${BOOST_FACTOR}${recencyFactor(request, bind, 'd.day', 'd.type')} AS score
    FROM ${TABLE} f LEFT JOIN ${DOCS_TABLE} d ON d.id = f.rowid${titleJoin} WHERE ${TABLE} MATCH ${bind(match)} ORDER BY score, id LIMIT ${boundCount(bind, depth)})`;
}
