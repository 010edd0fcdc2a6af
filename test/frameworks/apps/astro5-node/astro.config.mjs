import node from '@astrojs/node';
import { defineConfig } from 'astro/config';
import siteSearch from 'site-search/astro';
import options from './search.config.mjs';

export default defineConfig({
  output: 'server',
  // The production host: result URLs must still follow the request (astro dev and node alike), never this.
  site: 'https://docs.example.com',
  adapter: node({ mode: 'standalone' }),
  integrations: [siteSearch(options)],
  // Astro 5.17+ trusts the Host header only for these domains (otherwise request URLs say http://localhost).
  security: { allowedDomains: [{ hostname: '127.0.0.1' }, { hostname: 'localhost' }] },
});
