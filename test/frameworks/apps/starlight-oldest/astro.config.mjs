// The oldest Starlight site-search supports (package.json peerDependencies), on the Astro it needs:
// test/frameworks/starlight-oldest.test.ts builds it and searches it.
import node from '@astrojs/node';
import starlight from '@astrojs/starlight';
import { defineConfig } from 'astro/config';
import siteSearch from 'site-search/starlight';

// Nothing configured for origins, as docs/frameworks/starlight.md's quick start leaves it: Astro 5.18 then builds the
// endpoint's URLs on http://localhost, and the box must still open every result on the reader's host.
export default defineConfig({
  adapter: node({ mode: 'standalone' }),
  integrations: [starlight({ title: 'Otterbox', plugins: [siteSearch()] })],
});
