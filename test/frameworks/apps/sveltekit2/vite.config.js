import adapter from '@sveltejs/adapter-node';
import { sveltekit } from '@sveltejs/kit/vite';

// As `sv create` writes it for SvelteKit 2.62+: the options go to sveltekit(), and svelte.config.js is not read.
export default { plugins: [sveltekit({ adapter: adapter() })] };
