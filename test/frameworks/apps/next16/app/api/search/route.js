import { toNextHandler } from 'site-search/next';
import { openSqlite } from 'site-search/node';
import options from '../../../search.config.mjs';

// Result URLs are on the host the browser used (the Host header; next start reports every request on localhost).
export const { GET, HEAD, OPTIONS } = toNextHandler(options, { db: () => openSqlite('.site-search/search.db') });
