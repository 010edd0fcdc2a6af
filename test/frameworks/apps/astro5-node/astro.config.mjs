import node from '@astrojs/node';
import { defineConfig } from 'astro/config';
import siteSearch from 'site-search/astro';
import options from './search.config.mjs';

// How the app's origins are configured (TEST_ORIGINS, read by `astro build` and `astro dev`; frameworks/astro.test.ts
// builds it each way). 'allowed', the default: Astro 5.17+ takes the Host only for security.allowedDomains (otherwise
// its request URLs say http://localhost), and the endpoint suite asks on 127.0.0.1 and localhost. 'none': as the quick
// start leaves it. 'site': Astro's site, the production host.
const origins = {
  allowed: { security: { allowedDomains: [{ hostname: '127.0.0.1' }, { hostname: 'localhost' }] } },
  none: {},
  site: { site: 'https://docs.example.com' },
}[process.env.TEST_ORIGINS ?? 'allowed'];

export default defineConfig({
  output: 'server',
  adapter: node({ mode: 'standalone' }),
  integrations: [siteSearch(options)],
  ...origins,
});
