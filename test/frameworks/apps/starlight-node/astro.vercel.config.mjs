// astro.config.mjs with @astrojs/vercel in place of @astrojs/node, nothing else changed: test/frameworks/starlight.test.ts
// builds it (astro build --config astro.vercel.config.mjs) to check the plugin's index ships in the Vercel function.
import vercel from '@astrojs/vercel';
import starlight from '@astrojs/starlight';
import { defineConfig } from 'astro/config';
import siteSearch from 'site-search/starlight';

export default defineConfig({
  adapter: vercel(),
  integrations: [
    starlight({
      title: 'Otterbox',
      locales: { root: { label: 'English', lang: 'en' }, fr: { label: 'Français' } },
      plugins: [siteSearch()],
    }),
  ],
});
