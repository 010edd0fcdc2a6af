// The test app as docs/frameworks/starlight.md shows it (astro.config.mjs), with the MCP server and llms.txt on
// (docs/mcp.md): test/frameworks/starlight.test.ts builds the Node app with this one, so one build checks both.
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
      plugins: [siteSearch({ mcp: true, llms: true })],
    }),
  ],
});
