// docs/frameworks/starlight.md shows this file (test/frameworks/starlight.test.ts checks it).
import node from '@astrojs/node';
import starlight from '@astrojs/starlight';
import { defineConfig } from 'astro/config';
import siteSearch from 'site-search/starlight';

export default defineConfig({
  adapter: node({ mode: 'standalone' }),
  integrations: [
    starlight({
      title: 'Otterbox',
      locales: { root: { label: 'English', lang: 'en' }, fr: { label: 'Français' } },
      plugins: [siteSearch()],
    }),
  ],
});
