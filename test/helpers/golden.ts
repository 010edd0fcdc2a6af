/**
 * When a golden file may be rewritten (issue 48, item 3). A golden is an expectation someone read against its source;
 * a run that wrote its own output and then compared with it would prove nothing. So a run only compares (a mismatch
 * fails with the diff), and one golden is rewritten only when asked for by name, with the reason it is right:
 *
 *   UPDATE_GOLDEN=overwrite GOLDEN_PAGE=en/install-and-setup.mdx GOLDEN_REASON='read … against the source' npx vitest run test/indexer/text-golden.test.ts
 *
 * The reason is added to the golden's `.why.md`, which the test requires beside every golden.
 */
export type GoldenUpdate = { write: false; hint: string } | { write: true; reason: string };

/** The least a reason says: a sentence, not a word. */
export const MIN_REASON_LENGTH = 30;

/** Whether this run may rewrite `page`'s golden, from the environment; throws when asked to without a reason. */
export function goldenUpdate(env: Record<string, string | undefined>, page: string): GoldenUpdate {
  const how = `to rewrite it after reading the new text against the source, run with UPDATE_GOLDEN=overwrite GOLDEN_PAGE=${page} GOLDEN_REASON='<what you read against the source>'`;
  if (env.UPDATE_GOLDEN === undefined || env.UPDATE_GOLDEN === '') return { write: false, hint: how };
  if (env.UPDATE_GOLDEN !== 'overwrite') return { write: false, hint: `UPDATE_GOLDEN=${env.UPDATE_GOLDEN} rewrites nothing (see the diff); ${how}` };
  if (env.GOLDEN_PAGE !== page) return { write: false, hint: `GOLDEN_PAGE names another page; ${how}` };
  const reason = env.GOLDEN_REASON?.trim() ?? '';
  if (reason.length < MIN_REASON_LENGTH) throw new Error(`[site-search] refusing to rewrite the golden of ${page} without GOLDEN_REASON (at least ${MIN_REASON_LENGTH} characters: what you read against the source)`);
  return { write: true, reason };
}
