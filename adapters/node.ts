/** `site-search/node`: the embedded database and a `node:http` bridge. Node only. */
export { openSqlite, type SqliteDatabase, type SqliteDriver } from '../src/db/sqlite.js';
export { toNodeListener } from '../src/http/node-listener.js';
export { openAnalytics } from '../src/analytics/open.js';
