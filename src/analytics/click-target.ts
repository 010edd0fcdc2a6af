import { DOCS_TABLE, SECTIONS_TABLE } from '../db/schema.js';
import type { SearchDatabase } from '../db/types.js';

/**
 * One read of the index: the page a click report names, and whether its `#anchor` is one of that page's headings.
 * The stored path is returned as the index holds it, so the counted URL is the index's, never the report's text.
 */
const FIND_PAGE = `SELECT d.url AS url,
  EXISTS (SELECT 1 FROM ${SECTIONS_TABLE} s, json_each(s.sections) h WHERE s.page = d.id AND h.value ->> 1 = ?) AS heading
FROM ${DOCS_TABLE} d WHERE d.site = ? AND d.url IN (?, ?) LIMIT 1`;

/**
 * What a click on `pathAndHash` (`/docs/deploy/#install`) is counted as: the index's path of that page, with the
 * `#anchor` only when it is a heading of the page (any other fragment, `#access_token=…` say, is dropped); undefined
 * when the path is no page of the index (a click report for it is noise or forged).
 */
export async function indexedClickTarget(db: SearchDatabase, site: string, pathAndHash: string): Promise<string | undefined> {
  const at = pathAndHash.indexOf('#');
  const path = at < 0 ? pathAndHash : pathAndHash.slice(0, at);
  const anchor = at < 0 ? '' : decoded(pathAndHash.slice(at + 1));
  // The report's path is percent-encoded as the browser wrote it; the index may hold the same path unencoded.
  const { results } = await db.prepare(FIND_PAGE).bind(anchor, site, path, decoded(path)).all<{ url: string; heading: number }>();
  const page = results[0];
  if (!page) return undefined;
  return anchor && Number(page.heading) ? `${page.url}#${anchor}` : String(page.url);
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
