import adapter from '@sveltejs/adapter-node';
import { sveltekit } from '@sveltejs/kit/vite';

// SvelteKit 3 reads its config here; svelte.config.js is not used.
export default { plugins: [sveltekit({ adapter: adapter() })] };
