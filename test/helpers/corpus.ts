/**
 * The astro-docs corpus the corpus-wide tests read. The project's CI has the full one beside the checkout
 * (`../shared/corpora`, 1,831 pages in six languages); a fresh clone or a fork's CI does not, so those tests run on
 * the sample this repository carries (test/fixtures/astro-docs-sample: 48 of the same pages, same MIT licence) and say
 * so once. In the project's CI (`SITE_SEARCH_CI=1`) a missing corpus fails every file that reads it instead.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { missingOutsideProjectCi } from './project-ci.js';

const FULL = fileURLToPath(new URL('../../../shared/corpora/astro-docs/', import.meta.url));
/** The in-repo sample (it holds every page the golden tests read). */
export const SAMPLE_CORPUS = fileURLToPath(new URL('../fixtures/astro-docs-sample/', import.meta.url));

/** Whether the full corpus is present (it is in the project's CI); tests tuned to all 1,831 pages are skipped without it. */
export const HAS_FULL_CORPUS = existsSync(FULL);

/** The full corpus when present, else the in-repo sample. */
export const CORPUS = HAS_FULL_CORPUS ? FULL : SAMPLE_CORPUS;

/** The labeled queries (`lang kind query target also_ok`): beside the full corpus, or the copy in test/fixtures. */
export const QUERIES = HAS_FULL_CORPUS
  ? fileURLToPath(new URL('../../../shared/corpora/astro-docs-queries.tsv', import.meta.url))
  : fileURLToPath(new URL('../fixtures/astro-docs-queries.tsv', import.meta.url));

/** Page count of the corpus in use, so a count check holds for both. */
export const CORPUS_PAGES = HAS_FULL_CORPUS ? 1831 : 48;

if (!HAS_FULL_CORPUS) {
  const reason = missingOutsideProjectCi(`${FULL} is absent (a clone without the project's shared folder beside it)`);
  console.warn(
    `[site-search] ${reason}: corpus-wide tests run on the ${CORPUS_PAGES}-page sample in ` +
      'test/fixtures/astro-docs-sample, and the relevance test and the typo-index suites tuned to the full corpus are skipped.',
  );
}
