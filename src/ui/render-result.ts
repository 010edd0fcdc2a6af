import { h } from './dom.js';
import { safeHref } from './safe-url.js';
import { renderSnippet } from './snippet.js';
import type { SearchResult, SearchResultSection } from './types.js';

/**
 * Where choosing a result goes: the best-matching section when the server found one (it is the more precise place to
 * land), else the page. `''` when neither is a web URL.
 */
export function resultHref(result: SearchResult): string {
  return safeHref(result.section?.url) || safeHref(result.url);
}

/** `2026-01-02` → `Jan 2, 2026` in the reader's locale. UTC, because the date has no time zone. */
function formatDate(date: string): string {
  const parsed = new Date(date);
  return isNaN(+parsed) ? date : parsed.toLocaleDateString(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
}

/**
 * One option: emoji, title (› section heading), type and date, then the highlighted snippet. Every field
 * is set as text; a result without a safe URL (`href` is `''`) is shown but is not a link.
 */
export function renderResult(result: SearchResult, id: string, href: string): HTMLLIElement {
  const head = h('span', { class: 'head' }, h('span', { part: 'title', class: 'title' }, result.title));
  if (result.section?.heading) head.append(h('span', { part: 'section', class: 'section' }, result.section.heading));
  const meta = h('span', { part: 'meta', class: 'meta' }, h('span', { part: 'type', class: 'type' }, result.type));
  if (result.date) meta.append(h('time', { datetime: result.date }, formatDate(result.date)));
  head.append(meta);
  const snippet = h('span', { part: 'snippet', class: 'snippet' });
  renderSnippet(snippet, result.snippet);
  // The emoji is decoration: the title already names the page.
  const body = [h('span', { class: 'emoji', 'aria-hidden': 'true' }, result.emoji || '📄'), head, snippet];
  return optionRow(id, 'result', 'row', href, body);
}

/**
 * The list item holding one option. The option is the link itself (`<a role=option>`, allowed by ARIA in HTML): a
 * link inside an option would be one interactive element nested in another, which screen readers announce badly
 * (axe-core: nested-interactive). A real link still opens in a new tab on a modified or middle click.
 */
function optionRow(id: string, part: string, className: string, href: string, body: (Node | string)[]): HTMLLIElement {
  const attributes = { id, role: 'option', part, class: className, 'aria-selected': 'false' };
  // tabindex=-1: the listbox is walked with the arrow keys from the input, not with Tab through every link.
  const option = href ? h('a', { ...attributes, href, tabindex: '-1' }, ...body) : h('span', attributes, ...body);
  return h('li', { role: 'none' }, option);
}

/** One more matching section of the result above it: its heading and snippet, indented, an option of its own. */
export function renderSection(section: SearchResultSection & { snippet: string }, id: string, href: string): HTMLLIElement {
  const snippet = h('span', { part: 'snippet', class: 'snippet' });
  renderSnippet(snippet, section.snippet);
  const body = [h('span', { part: 'section', class: 'section' }, section.heading), snippet];
  return optionRow(id, 'result section-result', 'row sub', href, body);
}
