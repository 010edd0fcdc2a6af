import { slug as githubSlug } from 'github-slugger';

/**
 * The slug of a content file, as Astro's content collections derive it: the path under the source directory without
 * its extension, a trailing `index` dropped, each segment slugified like a GitHub heading anchor.
 *
 * @example pathToSlug('Guides/Getting Started.mdx') // 'guides/getting-started'
 */
export function pathToSlug(relativePath: string): string {
  const segments = relativePath.replace(/\.(md|mdx)$/i, '').split('/').filter(Boolean);
  if (segments[segments.length - 1]?.toLowerCase() === 'index') segments.pop();
  return segments.map((segment) => githubSlug(segment)).join('/');
}

/** Replaces `:slug` in a source's URL pattern, without doubling or losing slashes around an empty slug. */
export function slugToUrl(pattern: string, slug: string): string {
  if (!pattern.includes(':slug')) return pattern;
  const url = pattern.replaceAll(':slug', slug);
  return url.replace(/([^:]\/)\/+/g, '$1').replace(/^\/\/+/, '/');
}
