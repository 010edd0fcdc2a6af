import { toNextHandler } from 'site-search/next';
import { openSqlite } from 'site-search/node';
import options from '../../../search.config.mjs';

// next start reports request URLs on localhost: give result URLs the public origin.
export const { GET, HEAD, OPTIONS } = toNextHandler(options, {
  db: () => openSqlite('.site-search/search.db'),
  origin: process.env.SITE_URL,
});
