import node from '@astrojs/node';
import { defineConfig } from 'astro/config';
import siteSearch from 'site-search/astro';
import options from './search.config.mjs';

export default defineConfig({
  output: 'server',
  adapter: node({ mode: 'standalone' }),
  integrations: [siteSearch(options)],
});
