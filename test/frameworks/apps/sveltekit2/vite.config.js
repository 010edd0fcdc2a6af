import netlify from '@sveltejs/adapter-netlify';
import node from '@sveltejs/adapter-node';
import vercel from '@sveltejs/adapter-vercel';
import { sveltekit } from '@sveltejs/kit/vite';
import { withSearchIndex } from 'site-search/sveltekit/adapter';

// As `sv create` writes it for SvelteKit 2.62+: the options go to sveltekit(), and svelte.config.js is not read.
// adapter-node is the app's own; the serverless tests (frameworks/sveltekit.test.ts) build the same app with
// adapter-vercel and adapter-netlify (TEST_ADAPTER), configured as docs/frameworks/sveltekit.md says.
const adapters = { node: () => node(), vercel: () => withSearchIndex(vercel()), netlify: () => netlify() };

export default { plugins: [sveltekit({ adapter: adapters[process.env.TEST_ADAPTER ?? 'node']() })] };
