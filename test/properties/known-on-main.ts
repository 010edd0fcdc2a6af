/**
 * Bugs of main (d16066d) the ranking properties found, for the ranking core's rewrite to fix (issue 52, item 5). Each
 * is a named regression case in ./regressions.test.ts, marked `it.fails` on the drivers and states where main has it,
 * and tolerated by the property it breaks, narrowly (only a difference of exactly that shape, where main has it; each
 * time counted and printed), so that every other part of the property is still checked on every run. When the rewrite
 * fixes one, its regression case "fails" (it passes where it was expected to fail): set its `on` to `() => false`, and
 * the case runs as a plain test while the properties tolerate nothing of it. `RANKING_PROPERTIES_STRICT=1` checks every
 * property with no tolerance (on main it fails).
 */
import type { Memory } from './site.js';

/** Whether the properties tolerate the bugs below (not under `RANKING_PROPERTIES_STRICT=1`). */
const TOLERATE_KNOWN = !process.env.RANKING_PROPERTIES_STRICT;

const D1 = 'D1 (Miniflare)';

interface KnownBug {
  /** What should hold, as its regression case is named. */
  invariant: string;
  /** The drivers and states where main breaks it. */
  on(driver: string, memory: Memory): boolean;
}

export const KNOWN_ON_MAIN = {
  /**
   * The type facet of a search with `type=T` counts each other type's matches as the query is judged in T (T's
   * corrections and completions, T's decision to widen), not as choosing that type judges it: `what` with `type=de`
   * counts no French page where `type=fr` finds one (`what` corrected to "chat"); `host only` with `type=fr` counts 9
   * English pages where `type=en` finds 8 (French widens to any of the words, English has enough pages with both).
   */
  typeFacetJudgedInTheAskedType: {
    invariant: 'the type facet of a search with a type counts each other type as choosing that type finds',
    on: () => true,
  },
  /**
   * With `ranking: 'fts5'` and a type, a page suggests the correction only when it holds a result found through it:
   * `olcation install fai` with `type=en` answers five pages with its typed words, then the corrected ones; at
   * `limit=5` the first page suggests nothing, the second "location install fai".
   */
  fts5SuggestionOnlyWithACorrectedResult: {
    invariant: 'with ranking fts5 and a type, every page suggests what the whole answer suggests',
    on: () => true,
  },
  /**
   * node:sqlite and better-sqlite3, `ranking: 'fts5'`, no type: a corrected or completed search past its first page
   * with both facets answers 500, "VIEWs and/or subqueries nested too deep" (`abou`, `limit=1&offset=1`). D1's plan
   * answers it.
   */
  bothFacetsPastTheFirstPageNestTooDeep: {
    invariant: 'with ranking fts5 and no type, a corrected search counts both facets past its first page',
    on: (driver) => driver !== D1,
  },
  /**
   * D1 with the vocabulary in memory, the default ranking, no type: a search corrected in some type, past its first
   * page, with any facet answers 500, "too many terms in compound SELECT" (`situés`, `limit=1&offset=1&facets=type`).
   * The same request answers while the vocabulary is not in memory, and on SQLite.
   */
  facetsPastTheFirstPageOnD1WithTheVocabularyInMemory: {
    invariant: 'with the vocabulary in memory and no type, a corrected search counts facets past its first page',
    on: (driver, memory) => driver === D1 && memory === 'in memory',
  },
} satisfies Record<string, KnownBug>;

export type KnownBugName = keyof typeof KNOWN_ON_MAIN;

/** Whether a property run on `driver` in `memory` tolerates the bug. */
export function tolerates(bug: KnownBugName, driver: string, memory: Memory): boolean {
  return TOLERATE_KNOWN && KNOWN_ON_MAIN[bug].on(driver, memory);
}
