import { openSqlite } from 'site-search/node';
import { toSvelteKitHandler } from 'site-search/sveltekit';
import options from '../../../../search.config.mjs';

// adapter-node 6 does not read ORIGIN: give result URLs the public origin.
export const GET = toSvelteKitHandler(options, { db: () => openSqlite('.site-search/search.db'), origin: process.env.SITE_URL });
export const OPTIONS = GET;
