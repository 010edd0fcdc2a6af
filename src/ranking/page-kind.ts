/**
 * Guides before release notes (docs/ranking.md, "Release notes and blog posts"): release notes, changelogs, blog posts
 * and version-to-version migration guides mention every word of the guides they announce, and rank below guides and
 * reference for a how-to question, unless the question asks what changed or names a version the site's docs are not
 * filed under. A page's kind is told from its URL and its title, or given by its source's `kind`.
 */
import type { Bind } from '../db/types.js';
import type { JudgedQuery } from './types.js';

/** What a release note's relevance counts for beside a guide's, when the question does not ask what changed. */
export const NEWS_FACTOR = 0.33;

/** URL folders whose pages announce or record changes. */
const NEWS_FOLDERS = ['blog', 'blogs', 'posts', 'news', 'changelog', 'changelogs', 'release-notes', 'releases', 'announcements', 'whats-new'];
/** Page names (the URL's last part) of a page recording changes. */
const NEWS_PAGES = ['changelog', 'release-notes', 'releases', 'whats-new'];
/**
 * URL shapes of a dated post (`/2024/05/…`, `/2024-05-23-…`) and of a migration between versions (`migrate-from-v9-to-v10`,
 * `upgrade-to/v5`): a migration guide without a version (`migrate-to-astro`, from another tool) is a guide.
 */
const NEWS_GLOBS = ['*/[12][0-9][0-9][0-9]/[01][0-9]/*', '*/[12][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]*', '*/migrat*[0-9]*', '*/upgrad*[0-9]*'];
/** Title words of a post announcing a release or a change (a full-text expression over the titles table). */
export const NEWS_TITLE_MATCH = '"announcing" OR "introducing" OR "changelog" OR "release notes" OR "released" OR "what s new"';

/**
 * Query words that ask what changed: such a question is answered by the release notes and migration guides themselves.
 * Stems of them, as a reader writes them (`upgrading`, `migrated`, `deprecations`).
 */
const CHANGE_WORDS = /^(changelogs?|release[sd]?|upgrad\w*|migrat\w*|breaking|deprecat\w*|announc\w*|changed|what's|whats)$/;

/** A version named in a query: `v10`, `10`, `5.2`, `v5.2.1` (a whole number of three digits or more is not one). */
const VERSION = /^v?(\d{1,2}(?:\.\d+)*)$/;

/** What a query says about release notes: whether it asks what changed, and the versions it names (bare: `10`). */
export interface NewsAsked {
  changes: boolean;
  versions: string[];
}

/** What the words of a query (all of them, whatever is searched of a long one) say about release notes. */
export function newsAsked(words: readonly string[]): NewsAsked {
  const lower = words.map((w) => w.toLowerCase());
  const versions = [...new Set(lower.flatMap((w) => VERSION.exec(w)?.[1] ?? []))];
  return { changes: lower.some((w) => CHANGE_WORDS.test(w)), versions };
}

/**
 * A source's pages' kind, by the fixed start of its URL pattern (before `:slug`): `docs` never ranks as release notes,
 * `blog` and `changelog` always do; `undefined` is told from each page. The longest start that a page's URL begins with
 * is its source's.
 */
export type SourceKind = readonly [prefix: string, kind: 'docs' | 'blog' | 'changelog' | undefined];

/** The fixed start of a source's URL pattern, which its pages' URLs begin with. */
export function urlPrefix(pattern: string): string {
  const slug = pattern.indexOf(':slug');
  return slug === -1 ? pattern : pattern.slice(0, slug);
}

/**
 * Whether the page with URL `url` (SQL) is release notes, a changelog, a post or a migration between versions (SQL, 1
 * or 0): its source's `kind` when it has one, else its URL's folders, its name and shape, and its title (`titled`, SQL:
 * whether its title matches {@link NEWS_TITLE_MATCH}).
 */
export function isNewsPage(url: string, titled: string, sources: readonly SourceKind[], bind: Bind): string {
  const path = `('/' || lower(${url}) || '/')`;
  const detected = [
    ...NEWS_FOLDERS.map((folder) => `instr(${path}, '/${folder}/') > 0`),
    ...NEWS_PAGES.map((page) => `${path} GLOB '*/${page}/'`),
    ...NEWS_GLOBS.map((glob) => `${path} GLOB '${glob}'`),
    titled,
  ].join(' OR ');
  if (!sources.some(([, kind]) => kind !== undefined)) return `(${detected})`;
  // The source whose URL start is the longest the page's URL begins with, and its kind (NULL: told from the page).
  const kindOf = `(SELECT json_extract(value, '$[1]') FROM json_each(${bind(JSON.stringify(sources.map(([p, k]) => [p, k ?? null])))})
      WHERE substr(${url}, 1, length(json_extract(value, '$[0]'))) = json_extract(value, '$[0]')
      ORDER BY length(json_extract(value, '$[0]')) DESC LIMIT 1)`;
  return `(CASE coalesce(${kindOf}, '') WHEN 'docs' THEN 0 WHEN '' THEN (${detected}) ELSE 1 END)`;
}

/**
 * Version folders a named version files docs under (`10`: `/v10/`, `/10/`, `/10.x/`, `/version-10/`, …), as a JSON
 * array of the folders' names: a question naming a version whose docs are filed so asks for those docs, not for the
 * release notes of that version.
 */
export function versionFolders(versions: readonly string[]): string {
  return JSON.stringify(versions.flatMap((v) => [`v${v}`, v, `${v}.x`, `v${v}.x`, `version-${v}`, `version-${v}.x`]));
}

/**
 * Whether the page with URL `url` (SQL) is filed under a version the query names (SQL, 1 or 0; 0 when it names none).
 */
export function filedUnderVersion(query: Pick<JudgedQuery, 'news'>, url: string, bind: Bind): string {
  if (!query.news.versions.length) return '0';
  return `EXISTS (SELECT 1 FROM json_each(${bind(versionFolders(query.news.versions))}) f WHERE instr('/' || lower(${url}) || '/', '/' || f.value || '/') > 0)`;
}

/**
 * Whether release notes rank as guides for this query (SQL, 1 or 0): it asks what changed, or names a version none of
 * the window's pages is filed under (`anyFiled`, SQL: whether one is, by {@link filedUnderVersion}).
 */
export function newsWanted(query: Pick<JudgedQuery, 'news'>, anyFiled: string): string {
  if (query.news.changes) return '1';
  return query.news.versions.length ? `NOT ${anyFiled}` : '0';
}
