import { toNextHandler } from 'site-search/next';
import { openSqlite } from 'site-search/node';
import options from '../../../search.config.mjs';

export const dynamic = 'force-dynamic';
export const { GET, HEAD, OPTIONS } = toNextHandler(options, { db: () => openSqlite('.site-search/search.db') });
