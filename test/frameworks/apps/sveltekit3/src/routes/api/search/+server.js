import { openSqlite } from 'site-search/node';
import { toSvelteKitHandler } from 'site-search/sveltekit';
import options from '../../../../search.config.mjs';

export const GET = toSvelteKitHandler(options, { db: () => openSqlite('.site-search/search.db') });
export const OPTIONS = GET;
