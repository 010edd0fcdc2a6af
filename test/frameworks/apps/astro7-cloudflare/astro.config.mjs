import cloudflare from '@astrojs/cloudflare';
import { defineConfig } from 'astro/config';
import siteSearch from 'site-search/astro';
import options from './search.config.mjs';

export default defineConfig({
  output: 'server',
  adapter: cloudflare(),
  integrations: [siteSearch(options)],
});
