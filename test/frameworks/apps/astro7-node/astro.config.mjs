import netlify from '@astrojs/netlify';
import node from '@astrojs/node';
import vercel from '@astrojs/vercel';
import { defineConfig } from 'astro/config';
import siteSearch from 'site-search/astro';
import options from './search.config.mjs';

// The Node adapter is the app's own; the serverless tests (frameworks/astro.test.ts) build the same app with the
// Vercel and Netlify adapters, which must ship the index in their function without further configuration.
const adapters = { node: () => node({ mode: 'standalone' }), vercel: () => vercel(), netlify: () => netlify() };

export default defineConfig({
  output: 'server',
  adapter: adapters[process.env.TEST_ADAPTER ?? 'node'](),
  // The MCP server at /mcp and llms.txt in the build output (docs/mcp.md).
  integrations: [siteSearch({ ...options, mcp: true, llms: true })],
});
