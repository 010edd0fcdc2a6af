/**
 * Labeled sets are scored by URL: a mistyped target page would count as a miss for every engine in
 * `npm run bench:relevance` instead of failing anywhere. These helpers index a set's corpus with the real indexer and
 * list the labeled pages that are not among the indexed pages.
 */
import { resolveConfig, type SearchOptions } from '../../src/index.js';
import { buildIndex } from '../../src/indexer/index.js';
import { labeledPages, type LabeledSource } from '../../bench/labeled-queries.js';

/** The URL paths of the pages the indexer indexes with these options. */
export async function indexedPaths(options: SearchOptions): Promise<Set<string>> {
  const { documents } = await buildIndex(resolveConfig(options));
  return new Set(documents.map((d) => new URL(d.url, 'http://x').pathname.replace(/\/$/, '') || '/'));
}

/** The labeled pages of a file that are not an indexed page, each as `page (query)`. */
export function unresolved(file: string, corpus: string, indexed: Set<string>, sources?: readonly LabeledSource[]): string[] {
  return labeledPages(file, corpus, sources)
    .filter((p) => p.url === undefined || !indexed.has(p.url))
    .map((p) => `${p.page} (${p.query})`);
}
