import { h } from './dom.js';
import { putQueryInPageUrl, queryInPageUrl, withWords } from './page-url.js';
import { forgetSearch, readRecent, rememberSearch } from './recent.js';
import { fetchResults, reportClick, SearchError, searchUrl } from './request.js';
import { renderResult, renderSection, resultHref } from './render-result.js';
import { countOf, fillChips, offered } from './facets.js';
import { onPageOrigin, safeHref } from './safe-url.js';
import { ENGLISH, fill, isRightToLeft, translationFor, type SiteSearchStrings } from './strings.js';
import { STYLES } from './styles.js';
import type { SearchResponse, SearchResult, SiteSearchSelectDetail } from './types.js';

/** Quiet time after a keystroke before searching: fast typists send one request per pause, not per letter. */
const DEBOUNCE_MS = 120;
/** The endpoint answers nothing for shorter queries (docs/http-api.md), so the box does not ask. */
const MIN_QUERY_LENGTH = 2;
const DEFAULT_LIMIT = '8';
/** How many recent searches are kept and shown unless the `recent` attribute says otherwise. */
const DEFAULT_RECENT = 5;

/**
 * Server rendering (Astro, Next.js, SvelteKit) may import this module in Node, where `HTMLElement` does not exist; a
 * stand-in base class keeps the import from throwing there. The element is only ever defined in a browser.
 */
const BaseElement: typeof HTMLElement = globalThis.HTMLElement ?? (class {} as unknown as typeof HTMLElement);

/**
 * An opt-in attribute as written, read as an HTML boolean whatever a framework writes: Svelte 5 and Vue may write
 * `"true"` or `"false"`, React 19 writes `""`, and Solid sets a property (`queryParam` for `query-param`), which wins.
 */
function written(el: Element, name: string): string | null {
  const property = (el as unknown as Record<string, unknown>)[name.replace('-p', 'P')];
  return property == null ? el.getAttribute(name) : String(property);
}

/**
 * An opt-in attribute's value: `''` when it is off (absent or `"false"`), `fallback` when it is on without a value
 * (`""` or `"true"`), else the value it names.
 */
function optIn(el: Element, name: string, fallback: string): string {
  const value = written(el, name);
  return value === null || value === 'false' ? '' : value && value !== 'true' ? value : fallback;
}

/** True when a key press belongs to a text field, so a bare `/` typed there must not steal focus. */
function isEditable(target: EventTarget | undefined): boolean {
  const el = target as HTMLElement | undefined;
  return !!el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));
}

/**
 * `<site-search>`: a search box for the site-search endpoint, following the WAI-ARIA combobox pattern with a listbox
 * popup.
 *
 * Attributes: `endpoint` (default `/api/search`), `placeholder`, `label` (accessible name, default the placeholder),
 * `lang` (else the closest ancestor's: picks the built-in translation; see {@link SiteSearchElement.strings}),
 * `types` (comma-separated types offered as filter chips), `limit` (results per page, default 8), `hotkey` (the key
 * that focuses the box, default `/`; Ctrl/⌘+K always does; `none` turns both off), `recent` (how many recent searches
 * are kept and shown in the empty box, default 5; `0` turns them off), `query-param` (opt-in: the page's `?q=`, or the
 * parameter it names, is searched on load and kept up to date as the reader types), `inline` (the list is part of the
 * page and stays open: a full results page), `highlight` (opt-in: result links carry the searched words in
 * `?highlight=`, or the parameter it names, for `site-search/ui/highlight` to mark on the page), `facets` (opt-in:
 * `type`, `tags` or both, the default when empty: the endpoint counts them, and the box shows the types and the most
 * frequent tags of the matches as filters with their counts; chosen tags are all required and kept while paging).
 *
 * Fires `site-search:select` (bubbling, composed, cancelable; detail {@link SiteSearchSelectDetail}) before it
 * navigates to a chosen result; `preventDefault()` keeps it from navigating.
 *
 * @example
 * ```html
 * <script type="module" src="/site-search-ui.js"></script>
 * <site-search endpoint="/api/search" types="doc,post"></site-search>
 * ```
 */
export class SiteSearchElement extends BaseElement {
  static readonly observedAttributes = ['placeholder', 'label', 'types', 'hotkey', 'lang', 'dir'];

  readonly #root: ShadowRoot;
  readonly #input: HTMLInputElement;
  readonly #hint: HTMLElement;
  readonly #box: HTMLElement;
  readonly #panel: HTMLElement;
  readonly #chips: HTMLElement;
  readonly #tagChips: HTMLElement;
  readonly #status: HTMLElement;
  readonly #list: HTMLUListElement;
  readonly #more: HTMLButtonElement;
  /** The built-in translation of the page's language (English until it has loaded), and the page's own overrides. */
  #translation: SiteSearchStrings = ENGLISH;
  #overrides: Partial<SiteSearchStrings> = {};
  /** The language whose translation was last asked for, so a late answer for another one is ignored. */
  #lang = '';
  #results: SearchResult[] = [];
  /** What each option of the list opens: a result's page (or best section), or one more of its sections. */
  /** Each option's result, the link it opens, and the URL the endpoint gave (what a click report names). */
  #options: { result: SearchResult; url: string; given: string }[] = [];
  #active = -1;
  /** The words the shown results answer (the server's correction when it made one), for `highlight` links. */
  #words = '';
  /** The recent searches the list shows (the box is empty), or `undefined` when it shows results. */
  #recent?: string[];
  #type = '';
  /** The tags chosen (all required), and the counts of the last answer that had them. */
  #tags: string[] = [];
  #facets: SearchResponse['facets'];
  /** Increases with every request; an answer whose number is not the latest is stale and dropped. */
  #seq = 0;
  #inFlight?: AbortController;
  #debounce?: ReturnType<typeof setTimeout>;
  /** The query the shown results answer, and whether their endpoint counts the result opened. */
  #answered = { q: '', countsClicks: false };

  constructor() {
    super();
    this.#root = this.attachShadow({ mode: 'open', delegatesFocus: true });
    this.#input = h('input', {
      part: 'input',
      type: 'search',
      role: 'combobox',
      'aria-autocomplete': 'list',
      'aria-expanded': 'false',
      'aria-controls': 'results',
      autocomplete: 'off',
      autocapitalize: 'off',
      spellcheck: 'false',
      enterkeyhint: 'search',
    });
    this.#hint = h('kbd', { 'aria-hidden': 'true' });
    this.#chips = h('div', { class: 'chips', role: 'group', hidden: '' });
    this.#tagChips = h('div', { class: 'chips tags', role: 'group', hidden: '' });
    this.#status = h('div', { part: 'status', class: 'status', role: 'status' });
    this.#list = h('ul', { id: 'results', part: 'results', role: 'listbox' });
    this.#more = h('button', { part: 'more', class: 'more', type: 'button', hidden: '' });
    this.#panel = h('div', { part: 'panel', class: 'panel', hidden: '' }, this.#chips, this.#tagChips, this.#status, this.#list, this.#more);
    this.#box = h('div', { class: 'box' }, this.#input, this.#hint);
    this.#root.append(h('style', {}, STYLES), this.#box, this.#panel);

    this.#input.addEventListener('input', () => this.#onInput());
    this.#input.addEventListener('keydown', (e) => this.#onKeydown(e));
    // Coming back to the box (or clicking it after Escape) shows what it showed before it closed.
    const reopen = () => {
      if (this.#searchable() && this.#status.textContent) this.#open(true);
      else if (!this.#input.value) this.#showRecent();
    };
    this.#input.addEventListener('focus', reopen);
    this.#input.addEventListener('click', reopen);
    // Clicks in the panel must not move focus out of the input: the combobox keeps focus while the list is used.
    this.#panel.addEventListener('mousedown', (e) => e.preventDefault());
    this.#list.addEventListener('click', (e) => this.#onResultClick(e));
    this.#more.addEventListener('click', () => this.#search(this.#results.length));
    this.addEventListener('focusout', () => {
      // Focus moving between the input, the chips and the button stays inside; only leaving the element closes it.
      setTimeout(() => {
        if (!this.#root.activeElement && !optIn(this, 'inline', 'on')) this.#open(false);
      });
    });
  }

  /** The text in the box. Setting it does not search; call {@link SiteSearchElement.search} for that. */
  get value(): string {
    return this.#input.value;
  }
  set value(text: string) {
    this.#input.value = text;
  }

  /**
   * Replaces any of the box's strings (see `SiteSearchStrings`), over the built-in translation of the page's language:
   * `box.strings = { noResults: 'Nothing about “{query}”' }`. Reading it gives the strings in use.
   */
  get strings(): SiteSearchStrings {
    return { ...this.#translation, ...this.#overrides };
  }
  set strings(strings: Partial<SiteSearchStrings>) {
    this.#overrides = { ...strings };
    this.#syncAttributes();
  }

  #text(key: keyof SiteSearchStrings, values: Record<string, string> = {}): string {
    return fill(this.#overrides[key] ?? this.#translation[key], values);
  }

  /**
   * The element's `lang`, else its closest ancestor's, else the document's. A built-in translation other than English
   * is imported on first use; until it arrives the box shows English.
   */
  #loadLanguage(): void {
    const lang = this.closest('[lang]')?.getAttribute('lang') || 'en';
    if (lang === this.#lang) return;
    this.#lang = lang;
    const load = translationFor(lang);
    const apply = (strings: SiteSearchStrings) => {
      if (this.#lang !== lang) return;
      this.#translation = strings;
      this.#syncAttributes();
    };
    if (!load) return apply(ENGLISH);
    load().then(
      (module) => apply(module.default),
      (error: unknown) => console.error(`[site-search] ${lang} strings not loaded; showing English.`, error),
    );
  }

  /** Puts `query` in the box and searches for it at once (the dev page uses it for a query in the URL hash). */
  search(query: string): void {
    this.#input.value = query;
    this.#onInput(0);
  }

  connectedCallback(): void {
    document.addEventListener('keydown', this.#onHotkey);
    this.#loadLanguage();
    this.#syncAttributes();
    const param = this.#queryParam();
    const q = param && queryInPageUrl(param);
    if (q) this.search(q);
  }

  disconnectedCallback(): void {
    document.removeEventListener('keydown', this.#onHotkey);
    clearTimeout(this.#debounce);
    this.#inFlight?.abort();
  }

  attributeChangedCallback(name: string): void {
    if (name === 'lang' && this.isConnected) this.#loadLanguage();
    this.#syncAttributes();
  }

  #syncAttributes(): void {
    const placeholder = this.getAttribute('placeholder') ?? this.#text('placeholder');
    this.#input.placeholder = placeholder;
    this.#input.setAttribute('aria-label', this.getAttribute('label') || placeholder || this.#text('placeholder'));
    this.#chips.setAttribute('aria-label', this.#text('filterByType'));
    this.#tagChips.setAttribute('aria-label', this.#text('filterByTag'));
    this.#list.setAttribute('aria-label', this.#text('resultsLabel'));
    this.#more.textContent = this.#text('moreResults');
    // Direction is inherited from the page; a right-to-left language on a page that does not say so gets it here.
    const dir = this.closest('[dir]') ? '' : isRightToLeft(this.#lang) ? 'rtl' : '';
    for (const part of [this.#box, this.#panel]) dir ? part.setAttribute('dir', dir) : part.removeAttribute('dir');
    this.#hint.textContent = this.#hotkey();
    this.#showFilters();
  }

  /**
   * The filter chips: the `types` (else the types the endpoint counted) after "All", and the tags counted, each with
   * its count when the endpoint gave one (the `facets` attribute).
   */
  #showFilters(): void {
    const listed = (this.getAttribute('types') ?? '').split(',').map((t) => t.trim()).filter(Boolean);
    const { type, tags } = this.#facets ?? {};
    const types = listed.length ? listed : offered(type, []);
    if (this.#type && !types.includes(this.#type)) this.#type = '';
    const total = type?.reduce((n, c) => n + c.count, 0);
    fillChips(this.#chips, types.length ? ['', ...types] : [], {
      chosen: (t) => t === this.#type,
      name: (t) => t || this.#text('all'),
      count: (t) => (t ? countOf(type, t) : total),
      choose: (t) => this.#filter(t, this.#tags),
    });
    fillChips(this.#tagChips, offered(tags, this.#tags), {
      chosen: (t) => this.#tags.includes(t),
      count: (t) => countOf(tags, t),
      choose: (t) => this.#filter(this.#type, this.#tags.includes(t) ? this.#tags.filter((x) => x !== t) : [...this.#tags, t]),
    });
  }

  /** The URL parameter the query is shared in (`query-param`, `q` when it has no value), or `''` when it is not. */
  #queryParam(): string {
    return optIn(this, 'query-param', 'q');
  }

  /** With `query-param`, writes the query into the page's address, so a reload or a shared link searches it again. */
  #shareQuery(): void {
    const param = this.#queryParam();
    if (param) putQueryInPageUrl(param, this.#query());
  }

  /** The bare key that focuses the box, or `''` when hotkeys are off. */
  #hotkey(): string {
    const key = this.getAttribute('hotkey') ?? '/';
    return key === 'none' ? '' : key;
  }

  /** `/` (or the `hotkey`) outside a text field, and Ctrl/⌘+K anywhere, focus the box. Bound so it can be removed. */
  readonly #onHotkey = (e: KeyboardEvent): void => {
    const key = this.#hotkey();
    if (!key || e.defaultPrevented || e.altKey) return;
    const combo = (e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k';
    const bare = !e.ctrlKey && !e.metaKey && e.key === key && !isEditable(e.composedPath()[0]);
    if (combo || bare) {
      e.preventDefault();
      this.#input.focus();
      this.#input.select();
    }
  };

  /** Chooses the type and tags the results are filtered by, and searches again from the first page. */
  #filter(type: string, tags: string[]): void {
    this.#type = type;
    this.#tags = tags;
    this.#showFilters();
    if (this.#searchable()) this.#search(0);
  }

  /** The facets the endpoint is asked to count (`facets` attribute; on without a known name: both), or `''`. */
  #facetNames(): string {
    // Any other word is dropped rather than sent (the endpoint answers 400 to it).
    const names = optIn(this, 'facets', 'type,tags');
    return names && (['type', 'tags'].filter((name) => names.includes(name)).join() || 'type,tags');
  }

  #query(): string {
    return this.#input.value.trim();
  }

  /** Counted in code points, as the endpoint counts them (`😀` is one character). */
  #searchable(): boolean {
    return [...this.#query()].length >= MIN_QUERY_LENGTH;
  }

  #onInput(delay = DEBOUNCE_MS): void {
    clearTimeout(this.#debounce);
    if (!this.#searchable()) {
      this.#shareQuery();
      // Cancel whatever is pending and forget old results: they answered a query that is gone.
      this.#seq++;
      this.#inFlight?.abort();
      this.#showResults([], false);
      this.#setStatus('');
      if (!this.#showRecent()) this.#open(false);
      return;
    }
    this.#debounce = setTimeout(() => {
      this.#shareQuery();
      this.#search(0);
    }, delay);
  }

  /** Requests one page: `offset` 0 replaces the list, a larger offset ("More results") appends to it. */
  async #search(offset: number): Promise<void> {
    const q = this.#query();
    const seq = ++this.#seq;
    this.#inFlight?.abort();
    const controller = (this.#inFlight = new AbortController());
    const limit = this.getAttribute('limit') ?? DEFAULT_LIMIT;
    this.#panel.setAttribute('aria-busy', 'true');
    if (!offset && !this.#results.length) this.#setStatus('', this.#text('searching'));
    this.#open(true);
    try {
      const url = searchUrl(this.#endpoint(), { q, limit, offset, type: this.#type, tags: this.#tags, facets: this.#facetNames() });
      const body = await fetchResults(url, controller.signal);
      if (seq !== this.#seq) return;
      const fromMoreButton = this.#root.activeElement === this.#more;
      const firstNew = offset > 0 ? this.#options.length : 0;
      this.#words = body.suggestion ?? q;
      if (!offset) {
        this.#facets = body.facets;
        this.#showFilters();
      }
      this.#showResults(body.results, offset > 0);
      this.#answered = { q, countsClicks: body.countsClicks };
      this.#more.hidden = body.results.length < Number(limit);
      this.#describe(body, q);
      if (fromMoreButton && body.results.length) {
        // A keyboard user pressed "More results": continue on the first new result rather than lose focus with the
        // button when it hides after the last page.
        this.#input.focus();
        this.#activate(firstNew);
      }
    } catch (error) {
      if (seq !== this.#seq || controller.signal.aborted) return;
      if (!offset) this.#showResults([], false);
      this.#more.hidden = true;
      // The reader gets a message they can act on; the operator's detail goes to the console, where they look.
      const tooLong = error instanceof SearchError && error.tooLong;
      if (!tooLong) console.error(`[site-search] ${(error as Error).message}`);
      this.#setStatus('error', this.#text(tooLong ? 'tooLong' : 'unavailable'));
    } finally {
      if (seq === this.#seq) this.#panel.removeAttribute('aria-busy');
    }
  }

  /** The `endpoint` attribute, or the default route. */
  #endpoint(): string {
    return this.getAttribute('endpoint') || '/api/search';
  }

  /** With `highlight`, `url` carrying the searched words for `site-search/ui/highlight`; else `url` unchanged. */
  #withWords(url: string): string {
    const param = optIn(this, 'highlight', 'highlight');
    return param ? withWords(url, param, this.#words) : url;
  }

  /** How many recent searches to keep and show; 0 when the `recent` attribute turns them off. */
  #recentLimit(): number {
    const value = written(this, 'recent');
    // Absent, `""` or `"true"`: the default; `"false"` is not a number, so none.
    const limit = Number(!value || value === 'true' ? DEFAULT_RECENT : value);
    return Number.isInteger(limit) && limit > 0 ? limit : 0;
  }

  /**
   * In the focused, empty box: lists the recent searches as options (Enter searches one again, Delete or the ✕ removes
   * it). Returns false, showing nothing, when there are none or they are turned off.
   */
  #showRecent(): boolean {
    const limit = this.#recentLimit();
    const recent = limit && !this.#input.value && this.#root.activeElement ? readRecent().slice(0, limit) : [];
    if (!recent.length) return false;
    this.#showResults([], false);
    this.#recent = recent;
    this.#list.replaceChildren(
      ...recent.map((query, i) =>
        h(
          'li',
          { id: `option-${i}`, role: 'option', part: 'result recent', 'aria-selected': 'false' },
          h('span', { class: 'row recent' }, query),
          // For the mouse; the keyboard removes with Delete. Hidden from screen readers: an option holds no control.
          h('span', { part: 'remove', class: 'remove', 'aria-hidden': 'true', title: this.#text('removeRecent') }, '✕'),
        ),
      ),
    );
    this.#setStatus('', this.#text('recent'));
    this.#open(true);
    return true;
  }

  #forget(index: number): void {
    forgetSearch(this.#recent![index]!);
    if (this.#showRecent()) this.#activate(Math.min(index, this.#list.children.length - 1));
    else {
      this.#list.replaceChildren();
      this.#setStatus('');
      this.#open(false);
    }
  }

  #showResults(results: SearchResult[], append: boolean): void {
    this.#recent = undefined;
    if (!append) this.#options = [];
    const rows: HTMLLIElement[] = [];
    const endpoint = this.#endpoint();
    const add = (row: (id: string, url: string) => HTMLLIElement, result: SearchResult, given: string) => {
      const url = this.#withWords(given && onPageOrigin(given, endpoint));
      rows.push(row(`option-${this.#options.length}`, url));
      this.#options.push({ result, url, given });
    };
    for (const result of results) {
      add((id, url) => renderResult(result, id, url), result, resultHref(result));
      // The first section is the result's own link; the others follow it, each an option of its own.
      for (const section of result.sections?.slice(1) ?? []) add((id, url) => renderSection(section, id, url), result, safeHref(section.url));
    }
    if (append) {
      this.#results.push(...results);
      this.#list.append(...rows);
    } else {
      this.#results = results;
      this.#list.replaceChildren(...rows);
      this.#more.hidden = true;
      this.#activate(-1);
    }
  }

  /** The status line: no results, a corrected query, or the count (also what screen readers announce). */
  #describe(body: SearchResponse, q: string): void {
    const count = this.#results.length;
    if (!count) this.#setStatus('empty', this.#text('noResults', { query: q }));
    else if (body.suggestion) {
      // The suggestion is an element (bold), so the template is split around it rather than filled.
      const [before = '', after = ''] = this.#text('showingResultsFor').split('{suggestion}');
      this.#setStatus('', before, h('b', {}, body.suggestion), after);
    } else if (count === 1 && this.#more.hidden) this.#setStatus('', this.#text('oneResult'));
    else this.#setStatus('', this.#text('results', { count: `${count}${this.#more.hidden ? '' : '+'}` }));
  }

  /** `kind` (`error`, `empty` or `''`) styles the line; the content is text and elements, never markup. */
  #setStatus(kind: string, ...content: (Node | string)[]): void {
    this.#status.replaceChildren(...content);
    this.#status.className = `status ${kind}`;
  }

  #open(open: boolean): void {
    this.#panel.hidden = !open;
    // A class rather than a `:host([inline])` rule: `inline="false"` and the property count too.
    this.#panel.classList.toggle('inline', !!optIn(this, 'inline', 'on'));
    this.#input.setAttribute('aria-expanded', String(open));
    if (!open) this.#activate(-1);
  }

  /** The list's options, in order (results are `<a role=option>` inside an `<li>`; recent searches the `<li>` itself). */
  #optionElements(): Element[] {
    return [...this.#list.querySelectorAll('[role=option]')];
  }

  /** Makes option `index` the active descendant (-1: none) and scrolls it into view. */
  #activate(index: number): void {
    const options = this.#optionElements();
    options[this.#active]?.setAttribute('aria-selected', 'false');
    this.#active = index;
    const option = options[index];
    if (option) {
      option.setAttribute('aria-selected', 'true');
      this.#input.setAttribute('aria-activedescendant', option.id);
      option.scrollIntoView({ block: 'nearest' });
    } else {
      this.#input.removeAttribute('aria-activedescendant');
    }
  }

  #onKeydown(e: KeyboardEvent): void {
    // Enter or Escape while an input method is composing (Chinese, Japanese…) belongs to the composition.
    if (e.isComposing) return;
    const count = this.#optionElements().length;
    const open = !this.#panel.hidden;
    switch (e.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        if (!count) return;
        e.preventDefault();
        if (!open) this.#open(true);
        const step = e.key === 'ArrowDown' ? 1 : -1;
        // Wraps around at both ends; from "nothing active", Down goes to the first result and Up to the last.
        this.#activate(this.#active < 0 ? (step > 0 ? 0 : count - 1) : (this.#active + step + count) % count);
        break;
      }
      case 'Enter':
        if (!open || !count) return;
        e.preventDefault();
        // Enter without choosing goes to the top hit, as a search box is expected to.
        this.#select(Math.max(this.#active, 0), e.ctrlKey || e.metaKey);
        break;
      case 'Escape':
        if (open) {
          e.preventDefault();
          this.#open(false);
        } else if (this.#input.value) {
          e.preventDefault();
          this.search('');
          this.#open(false);
        }
        break;
      case 'Delete':
        if (this.#recent && this.#active >= 0) {
          e.preventDefault();
          this.#forget(this.#active);
        }
    }
  }

  #onResultClick(e: MouseEvent): void {
    const option = (e.target as Element).closest('[role=option]');
    // Modified clicks (new tab, new window) are left to the browser's own link handling.
    if (!option || e.button || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    const index = this.#optionElements().indexOf(option);
    if (this.#recent && (e.target as Element).closest('.remove')) this.#forget(index);
    else this.#select(index);
  }

  /** Announces the choice with a cancelable `site-search:select`, then navigates unless a listener prevented it. */
  #select(index: number, newTab = false): void {
    const again = this.#recent?.[index];
    if (again) return this.search(again);
    const option = this.#options[index];
    if (!option) return;
    // Remembered on choosing a result, whoever navigates (the box, or a client-side router that cancels the event).
    if (this.#recentLimit()) rememberSearch(this.#query(), this.#recentLimit());
    const { result, url, given } = option;
    const detail: SiteSearchSelectDetail = { result, url };
    const proceed = this.dispatchEvent(new CustomEvent('site-search:select', { detail, bubbles: true, composed: true, cancelable: true }));
    if (!url) return;
    // Counted whoever navigates: the box below, or a client-side router that cancelled the event (Next.js, SvelteKit).
    // The URL as the endpoint gave it: the endpoint counts only links on the origin it built them on.
    if (this.#answered.countsClicks) reportClick(this.#endpoint(), this.#answered.q, given, this.#results.indexOf(result) + 1);
    if (!proceed) return;
    if (newTab) window.open(url, '_blank', 'noopener');
    else location.assign(url);
  }
}
