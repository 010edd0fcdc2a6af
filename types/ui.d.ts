/**
 * The types of `site-search/ui`: the element's module (dist/ui.d.ts), and `<site-search>` with its attributes as an
 * element of every framework's templates, so no project declares it: React 19 (`React.JSX`), Preact and Solid JSX,
 * Svelte (`svelte/elements`), Vue (`GlobalComponents`) and Astro (`astroHTML.JSX`).
 *
 * Each block augments one framework's types. In a project without that framework the block names a module that is
 * not installed, which TypeScript reports only when it checks library files: every framework's starter sets
 * `skipLibCheck: true` (Next.js, SvelteKit, Astro, Vite), where such a block is simply ignored.
 *
 * Hand-written because tsup's declaration build compiles against this repository's dependencies, which do not
 * include Preact, Solid, Svelte, Vue or Astro; test/docs/ui-snippets.test.ts and test/docs/ui-types.test.ts check it.
 */
import type { SiteSearchElement } from '../dist/ui.js';

export * from '../dist/ui.js';

/** The attributes of `<site-search>` (docs/ui.md#attributes), as any template may write them. */
export interface SiteSearchAttributes {
  endpoint?: string;
  placeholder?: string;
  label?: string;
  types?: string;
  limit?: number | string;
  hotkey?: string;
  /** Read as HTML booleans too: `""`/`"true"` on, `"false"` off, whatever the framework writes (docs/ui.md#attributes). */
  recent?: number | string | boolean;
  'query-param'?: string | boolean;
  inline?: boolean | '' | 'true' | 'false';
  highlight?: string | boolean;
  /** `type`, `tags`, `type,tags`, or `''`/`true` for both: filters with counts (docs/ui.md#filters-with-counts). */
  facets?: string | boolean;
}

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'site-search': DetailedHTMLProps<HTMLAttributes<SiteSearchElement>, SiteSearchElement> & SiteSearchAttributes;
    }
  }
}

declare module 'preact' {
  namespace JSX {
    interface IntrinsicElements {
      'site-search': HTMLAttributes<SiteSearchElement> & SiteSearchAttributes;
    }
  }
}

// Solid's JSX namespace is declared in the module `jsxImportSource: "solid-js"` reads; `solid-js` only re-exports it.
declare module 'solid-js/jsx-runtime' {
  namespace JSX {
    interface IntrinsicElements {
      'site-search': HTMLAttributes<SiteSearchElement> & SiteSearchAttributes;
    }
  }
}

declare module 'svelte/elements' {
  interface SvelteHTMLElements {
    'site-search': HTMLAttributes<SiteSearchElement> & SiteSearchAttributes;
  }
}

// The shape Vue's guide gives a custom element in GlobalComponents: a constructor whose instances carry `$props`.
declare module 'vue' {
  interface GlobalComponents {
    'site-search': new () => SiteSearchElement & { $props: import('vue').HTMLAttributes & SiteSearchAttributes & import('vue').PublicProps };
  }
}

declare global {
  namespace astroHTML.JSX {
    interface IntrinsicElements {
      'site-search': HTMLAttributes & SiteSearchAttributes;
    }
  }
}
