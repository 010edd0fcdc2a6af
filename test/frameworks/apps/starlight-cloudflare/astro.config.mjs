import cloudflare from '@astrojs/cloudflare';
import starlight from '@astrojs/starlight';
import { defineConfig } from 'astro/config';
import siteSearch from 'site-search/starlight';

export default defineConfig({
  // Starlight's Markdown pipeline does not load in workerd; its pages are prerendered in Node.
  adapter: cloudflare({ prerenderEnvironment: 'node' }),
  integrations: [
    starlight({
      title: 'Otterbox',
      locales: { root: { label: 'English', lang: 'en' }, fr: { label: 'Français' } },
      plugins: [siteSearch({ database: 'starlight-search' })],
    }),
  ],
});
