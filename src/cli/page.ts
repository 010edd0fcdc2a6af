/** Where the dev server serves the built `<site-search>` element (dist/ui.js). */
export const UI_SCRIPT_ROUTE = '/site-search-ui.js';
/** Where it serves `site-search/ui/highlight` (dist/ui-highlight.js), which each result page runs. */
export const HIGHLIGHT_SCRIPT_ROUTE = '/site-search-highlight.js';

const escapeAttribute = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The search page `site-search dev` serves at `/`: the `<site-search>` element from `site-search/ui`, on the endpoint,
 * with a filter chip per source type when there is more than one. The query is kept in `?q=` (a reload or a shared link
 * searches it again); one in the URL hash, as older links had it, is searched on load too.
 */
export function devPage(apiRoute: string, types: readonly string[] = []): string {
  const typesAttribute = types.length > 1 ? ` types="${escapeAttribute(types.join(','))}"` : '';
  return `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>site-search dev</title>
<link rel="icon" href="data:,">
<style>
  body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: #f5f6f8; color: #1a1d23; }
  main { max-width: 44rem; margin: 0 auto; padding: 12vh 1.25rem 4rem; }
  h1 { font-size: 1.35rem; letter-spacing: -.01em; margin: 0 0 1rem; }
  h1 span { font-weight: 500; font-size: .8rem; color: #5d6675; border: 1px solid #d9dde4; border-radius: 99px; padding: .1rem .5rem; margin-left: .4rem; vertical-align: middle; }
  p { font-size: .85rem; color: #5d6675; margin: .9rem .2rem 0; }
  code, kbd { font: .8rem ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
  kbd { border: 1px solid #d9dde4; border-bottom-width: 2px; border-radius: 4px; padding: 0 .3rem; }
  @media (prefers-color-scheme: dark) {
    body { background: #111318; color: #e6e8ee; }
    h1 span, kbd { border-color: #353a46; } h1 span, p { color: #9aa3b3; }
  }
</style>
<main>
  <h1>site-search<span>dev</span></h1>
  <site-search endpoint="${escapeAttribute(apiRoute)}"${typesAttribute} placeholder="Search the content…" query-param></site-search>
  <p>Press <kbd>/</kbd> or <kbd>Ctrl</kbd> <kbd>K</kbd> to search, <kbd>↑</kbd> <kbd>↓</kbd> to choose, <kbd>Enter</kbd> to open. Endpoint: <code>${escapeAttribute(apiRoute)}?q=…</code></p>
</main>
<script type="module" src="${UI_SCRIPT_ROUTE}"></script>
<script type="module">
  // Runs after the element's module (both are deferred, in order), so the element is defined here.
  const query = decodeURIComponent(location.hash.slice(1));
  if (query) document.querySelector('site-search').search(query);
</script>
</html>
`;
}

/** What the dev server shows at a result's URL: the indexed text of that page. */
export interface IndexedPage {
  title: string;
  description: string;
  content: string;
  url: string;
}

/**
 * The page `site-search dev` serves at a result's URL, so a click on a result opens something: the document's title,
 * description and indexed text (what search sees, not the site's rendering of it), with a link back to the search.
 */
export function documentPage(page: IndexedPage): string {
  const text = escapeAttribute;
  const paragraphs = page.content
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `  <p>${text(p)}</p>`)
    .join('\n');
  return `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${text(page.title)} · site-search dev</title>
<link rel="icon" href="data:,">
<style>
  body { margin: 0; font: 16px/1.6 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  main { max-width: 44rem; margin: 0 auto; padding: 3rem 1.25rem; }
  aside { font-size: .85rem; color: #5d6675; border-left: 3px solid #d9dde4; padding-left: .75rem; }
</style>
<main>
  <a href="/">← Back to search</a>
  <aside>The indexed text of <code>${text(page.url)}</code>, served by <code>site-search dev</code>; your site renders this page.</aside>
  <h1>${text(page.title)}</h1>
${page.description ? `  <p><em>${text(page.description)}</em></p>\n` : ''}${paragraphs}
</main>
<script type="module">
  // Marks the words of ?highlight= (from a box with the highlight attribute), as a site using site-search/ui/highlight does.
  import { highlightSearchTerms } from '${HIGHLIGHT_SCRIPT_ROUTE}';
  highlightSearchTerms();
</script>
</html>
`;
}
