import node from '@astrojs/node';
import { defineConfig } from 'astro/config';
import siteSearch from 'site-search/astro';
import options from './search.config.mjs';

// The newest Astro 7 with the Node adapter, as `astro add node` sets it up: by default no `site` and no
// `security.allowedDomains`. TEST_ORIGINS (read by `astro build` and `astro dev`; frameworks/astro.test.ts builds it each
// way) adds Astro's `site` ('site') or an allowed domain ('allowed') to check where absolute URLs are built.
const origins = {
  none: {},
  site: { site: 'https://docs.example.com' },
  allowed: { security: { allowedDomains: [{ hostname: 'docs.example.test' }] } },
}[process.env.TEST_ORIGINS ?? 'none'];

export default defineConfig({
  output: 'server',
  adapter: node({ mode: 'standalone' }),
  integrations: [siteSearch({ ...options, mcp: true })],
  ...origins,
});
