import type { SearchSource } from '../../src/index.js';

/** The parts of Starlight's user config that decide which pages exist and where. */
export interface StarlightLocales {
  locales?: Record<string, { label?: string; lang?: string } | undefined>;
  defaultLocale?: string;
}

/** The parts of Astro's config that shape page URLs. */
export interface AstroUrlConfig {
  base?: string;
  trailingSlash?: 'always' | 'never' | 'ignore';
}

/**
 * The path the endpoint answers at without a redirect on a site with this `base` and `trailingSlash`: with `'always'`
 * a request without the slash is a 404 under `astro dev` and a 301 from the built server (one more round trip per
 * keystroke), with `'never'` the same for one with it. `'ignore'` (Astro's default) answers `apiRoute` as written.
 */
export function endpointPath(apiRoute: string, astro: AstroUrlConfig): string {
  const path = `${(astro.base ?? '/').replace(/\/+$/, '')}${apiRoute}`;
  if (astro.trailingSlash === 'always') return path.endsWith('/') ? path : `${path}/`;
  if (astro.trailingSlash === 'never') return path.replace(/(.)\/+$/, '$1');
  return path;
}

/** Starlight's docs collection, as its `docsLoader()` reads it. */
export const DOCS_DIR = 'src/content/docs';
/** The type of every page on a site with one language. */
export const MONOLINGUAL_TYPE = 'docs';

/** One source per locale: its type (the `?type=` filter) and the locale key Starlight reports for its pages. */
export interface LocaleSource extends SearchSource {
  /** `Astro.locals.starlightRoute.locale` for this source's pages: the locale's directory, `undefined` for root. */
  locale: string | undefined;
}

/**
 * The sources of a Starlight site: one per locale, so each locale is filterable, with URLs exactly as Starlight builds
 * them (`<base>/<locale>/<slug>/`, the root locale without a prefix). The type of a locale is its directory name (the
 * root locale's is its `lang`, default `en`); a site without `locales` has one source of type `docs`. Docs pages are
 * reference pages: no source ranks by date (`recency: false`). Each page must pass Starlight's docs schema
 * (`frontmatter: 'starlight'`), as it must to be built.
 */
export function starlightSources(starlight: StarlightLocales, astro: AstroUrlConfig, docsDir = DOCS_DIR): LocaleSource[] {
  const base = (astro.base ?? '/').replace(/\/+$/, '');
  const slash = astro.trailingSlash === 'never' ? '' : '/';
  const url = (prefix: string) => `${base}/${prefix ? `${prefix}/` : ''}:slug${slash}`;
  // Reference pages: a date some page carries must not rank it above the others.
  const recency = false;
  // Only pages Starlight builds: one whose frontmatter its docs schema rejects would open on a missing page.
  const frontmatter = 'starlight' as const;
  const locales = Object.keys(starlight.locales ?? {});
  if (locales.length === 0) return [{ dir: docsDir, type: MONOLINGUAL_TYPE, url: url(''), recency, frontmatter, locale: undefined }];
  const prefixed = locales.filter((key) => key !== 'root');
  const sources: LocaleSource[] = prefixed.map((key) => ({ dir: `${docsDir}/${key}`, type: key, url: url(key), recency, frontmatter, locale: key }));
  if (locales.includes('root')) {
    // Root pages sit beside the locale folders, which belong to their own sources (skipDirs matches names at any
    // depth, so a root page inside a nested folder named like a locale is skipped too; Starlight sites do not do that).
    const type = starlight.locales?.root?.lang?.toLowerCase() || 'en';
    sources.unshift({ dir: docsDir, type: prefixed.includes(type) ? 'root' : type, url: url(''), recency, frontmatter, locale: undefined, skipDirs: ['Templates', ...prefixed] });
  }
  return sources;
}
