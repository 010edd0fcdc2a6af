// No db and no platform: the handler must answer 500 naming the missing binding.
import { toSvelteKitHandler } from 'site-search/sveltekit';
import options from '../../../../search.config.mjs';

export const GET = toSvelteKitHandler(options);
export const OPTIONS = GET;
