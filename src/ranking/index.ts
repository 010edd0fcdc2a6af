/**
 * The rankings (docs/ranking.md): the coverage ranking, the default, and SPEC.md's literal one. Code that runs on Node
 * carries both; a Worker carries the coverage ranking, and the literal one only when it is given
 * (`site-search/literal-ranking`).
 */
import { coverageRanking } from './coverage.js';
import { literalRanking } from './literal.js';
import type { Ranking } from './types.js';

export { coverageRanking, literalRanking };
export type { Ranking };

/** Both rankings, for code that is not bundled into a Worker. */
export const ALL_RANKINGS: readonly Ranking[] = [coverageRanking, literalRanking];
