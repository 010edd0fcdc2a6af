// No db and no Cloudflare context: the handler must answer 500 naming the missing binding.
import { toNextHandler } from 'site-search/next';
import options from '../../../search.config.mjs';

export const { GET, HEAD, OPTIONS } = toNextHandler(options);
