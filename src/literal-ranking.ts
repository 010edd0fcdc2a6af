/**
 * `site-search/literal-ranking`: SPEC.md's literal ranking (`ranking: 'fts5'`, or `widen: false`), for a Worker that is
 * configured with it: `createWorker(options, { rankings: [literalRanking] })`. Without it a Worker ships the default
 * ranking only (docs/ranking.md).
 */
export { literalRanking } from './ranking/literal.js';
export type { Ranking } from './ranking/types.js';
