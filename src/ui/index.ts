/**
 * `site-search/ui`: the `<site-search>` custom element, a dependency-free search box for the site-search endpoint.
 * Importing this module registers the element (in a browser); {@link defineSiteSearch} does the same explicitly, for
 * bundlers that drop side-effect-only imports.
 *
 * @packageDocumentation
 */
import { SiteSearchElement } from './element.js';
import type { SiteSearchSelectDetail } from './types.js';

export { SiteSearchElement };
export { parseSnippet, type SnippetPart } from './snippet.js';
export type { SiteSearchStrings } from './strings.js';
export type { SearchResponse, SearchResult, SearchResultSection, SiteSearchSelectDetail } from './types.js';

/**
 * Registers `<site-search>` (or `tagName`) unless that name is already taken, so loading the script twice, or two
 * bundles each calling this, is harmless. Does nothing outside a browser (server rendering).
 *
 * @returns The constructor registered under the name, or `undefined` where there is no `customElements`.
 */
export function defineSiteSearch(tagName = 'site-search'): CustomElementConstructor | undefined {
  if (typeof customElements === 'undefined') return undefined;
  if (!customElements.get(tagName)) {
    // A subclass per extra name: the registry refuses one constructor under two names.
    customElements.define(tagName, tagName === 'site-search' ? SiteSearchElement : class extends SiteSearchElement {});
  }
  return customElements.get(tagName);
}

defineSiteSearch();

declare global {
  interface HTMLElementTagNameMap {
    'site-search': SiteSearchElement;
  }
  interface HTMLElementEventMap {
    'site-search:select': CustomEvent<SiteSearchSelectDetail>;
  }
}
