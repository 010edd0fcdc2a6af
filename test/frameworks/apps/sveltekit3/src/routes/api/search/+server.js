import { openSqlite } from 'site-search/node';
import { toSvelteKitHandler } from 'site-search/sveltekit';
import options from '../../../../search.config.mjs';

// adapter-node 6 takes the origin from kit.paths.origin (build time) or PROTOCOL_HEADER/HOST_HEADER; the test starts
// on a port it learns at run time, so it passes the origin as site-search's option.
export const GET = toSvelteKitHandler({ ...options, origin: process.env.SITE_URL }, { db: () => openSqlite('.site-search/search.db') });
export const OPTIONS = GET;
