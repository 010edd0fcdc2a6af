// The oldest Starlight site-search supports (package.json peerDependencies), on the Astro it needs:
// test/frameworks/starlight-oldest.test.ts builds it and searches it.
import node from '@astrojs/node';
import starlight from '@astrojs/starlight';
import { defineConfig } from 'astro/config';
import siteSearch from 'site-search/starlight';

export default defineConfig({
  adapter: node({ mode: 'standalone' }),
  integrations: [starlight({ title: 'Otterbox', plugins: [siteSearch()] })],
  // Astro 5.17+ trusts the Host header only for these domains (otherwise result URLs say http://localhost).
  security: { allowedDomains: [{ hostname: '127.0.0.1' }, { hostname: 'localhost' }] },
});
