/**
 * Every string the box shows or announces, and how a language is chosen. English is built in; the other built-in
 * translations are modules of their own (./locales/), imported only on a page in that language, so an English page
 * loads none of them.
 */

/** The box's strings. `{query}`, `{count}` and `{suggestion}` are filled in where they appear. */
export interface SiteSearchStrings {
  /** The input's placeholder (and accessible name) when the element has no `placeholder` attribute. */
  placeholder: string;
  searching: string;
  /** `{query}`: what was searched. */
  noResults: string;
  /** `{suggestion}`: the corrected query the results are for (shown bold). */
  showingResultsFor: string;
  oneResult: string;
  /** `{count}`: the number shown, `8+` when there are more. */
  results: string;
  moreResults: string;
  /** The type chip that removes the type filter. */
  all: string;
  filterByType: string;
  /** The accessible name of the tag filters (the `facets` attribute). */
  filterByTag: string;
  /** The accessible name of the list of results. */
  resultsLabel: string;
  /** Shown for every failure the reader cannot fix; the detail goes to the console. */
  unavailable: string;
  /** Shown when the query is longer than the server allows. */
  tooLong: string;
  /** The heading of the recent searches, shown when the box is focused and empty. */
  recent: string;
  /** The tooltip of a recent search's remove control. */
  removeRecent: string;
}

export const ENGLISH: SiteSearchStrings = {
  placeholder: 'Search',
  searching: 'Searching…',
  noResults: 'No results for “{query}”',
  showingResultsFor: 'Showing results for {suggestion}',
  oneResult: '1 result',
  results: '{count} results',
  moreResults: 'More results',
  all: 'All',
  filterByType: 'Filter by type',
  filterByTag: 'Filter by tag',
  resultsLabel: 'Search results',
  unavailable: 'Search is unavailable.',
  tooLong: 'That search is too long: shorten it.',
  recent: 'Recent searches',
  removeRecent: 'Remove from recent searches (Delete)',
};

type Loader = () => Promise<{ default: SiteSearchStrings }>;

/** The built-in translations, by lower-case language tag. Each `import()` is a file a bundler splits off. */
const TRANSLATIONS: Record<string, Loader> = {
  ar: () => import('./locales/ar.js'),
  de: () => import('./locales/de.js'),
  es: () => import('./locales/es.js'),
  fr: () => import('./locales/fr.js'),
  he: () => import('./locales/he.js'),
  it: () => import('./locales/it.js'),
  ja: () => import('./locales/ja.js'),
  ko: () => import('./locales/ko.js'),
  'pt-br': () => import('./locales/pt-BR.js'),
  ru: () => import('./locales/ru.js'),
  'zh-cn': () => import('./locales/zh-CN.js'),
  'zh-tw': () => import('./locales/zh-TW.js'),
};

/**
 * The built-in translation closest to a BCP 47 tag, or `undefined` (English). `fr-CA` takes `fr`, any `pt` takes
 * Brazilian Portuguese, and Chinese is Traditional for Taiwan, Hong Kong, Macau and `Hant`, else Simplified.
 */
export function translationFor(lang: string): Loader | undefined {
  const tag = lang.toLowerCase();
  const base = tag.split('-')[0]!;
  if (base === 'zh') return TRANSLATIONS[/-(tw|hk|mo|hant)\b/.test(tag) ? 'zh-tw' : 'zh-cn'];
  return TRANSLATIONS[tag] ?? TRANSLATIONS[base === 'pt' ? 'pt-br' : base];
}

/** True for the languages written right to left (Arabic, Hebrew, Persian, Urdu and a few more). */
export const isRightToLeft = (lang: string): boolean => /^(ar|he|iw|fa|ur|ps|sd|yi|dv|ckb)(-|$)/i.test(lang);

/** Fills `{name}` placeholders. */
export const fill = (template: string, values: Record<string, string>): string =>
  template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
