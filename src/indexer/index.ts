/**
 * `site-search/indexer`: Markdown/MDX to index rows, and pushes to SQLite or D1. Node only. It exports what a build
 * script calls (docs/api.md lists every name); the modules behind it are internal.
 */
export type { IndexDocument, IndexWarning } from './document.js';
export { buildIndex, readDocuments, newBuildStats, type BuildOptions, type BuildResult, type BuildStats } from './build.js';
export { pushIndex, writeIndex, type PushResult, type PushTarget } from './push.js';
export { pushStatements, toSqlFile } from './sql.js';
export { checkDatabaseConfig, type DatabaseCheck } from './wrangler.js';
export type { PushCounts } from './changes.js';
