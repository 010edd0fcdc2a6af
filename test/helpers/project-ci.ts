/**
 * What only the project's own CI has: the shared folder beside the checkout (`../shared`: SPEC.md and the full
 * corpora). `.ci/run` sets `SITE_SEARCH_CI=1`; there a test that needs that folder fails when it is missing. Anyone
 * else's CI sets only `CI` (GitHub Actions and the rest do), and a fork's run must stay green without the folder: the
 * tests that need it are skipped there with the reason as their note, as on a contributor's clone.
 */
export const IN_PROJECT_CI = process.env.SITE_SEARCH_CI === '1';

/** Throws, naming what is missing, when the project's CI lacks something it must have; else returns the reason to skip with. */
export function missingOutsideProjectCi(reason: string): string {
  if (IN_PROJECT_CI) throw new Error(`[site-search] ${reason}; the project's CI (SITE_SEARCH_CI=1, set by .ci/run) has it, and must read it`);
  return reason;
}
