/** `site-search/ui`: the `<site-search>` custom element. (Placeholder until the element lands.) */
export {};
