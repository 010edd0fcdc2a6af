/**
 * The database a request is answered from, as every route finds it (the endpoint, the MCP server, llms.txt): the
 * runtime's `db` (opened on first use), else the platform's binding; what went wrong as the endpoint words it (a file
 * that cannot be opened, a missing binding, an index found damaged before), logged one line at a time.
 */
import { isSearchDatabase, type SearchDatabase } from '../db/types.js';
import { SiteSearchError } from '../errors.js';
import type { IndexFailures } from './index-failures.js';
import type { ResolvedConfig } from '../options/options.js';

/** Where the database comes from: the runtime's `db` (or the function that opens it), else `env[binding]`. */
export interface DatabaseSource {
  db?: SearchDatabase | (() => SearchDatabase);
}

/** A route's database, or the 500's message when there is none to answer from. */
export type Found = { db: SearchDatabase } | { problem: string };

/**
 * Finds a request's database: `source.db` (a function is called until it returns one, then kept), else
 * `env[config.binding]`. `failures` (a local index's, when the route has one) words and logs an open that fails and a
 * database found damaged before.
 */
export function databaseFinder(
  config: ResolvedConfig,
  source: DatabaseSource,
  missingBinding: (binding: string, found: unknown) => string,
  failures?: IndexFailures,
): (env: object | undefined) => Found {
  let own: SearchDatabase | undefined;
  const given = () => (typeof source.db === 'function' ? (own ??= source.db()) : source.db);
  return (env) => {
    let db: unknown;
    try {
      db = given() ?? (env as Record<string, unknown> | undefined)?.[config.binding];
    } catch (e) {
      // The open is tried again by the next request (the index may be built by then).
      if (failures) return { problem: failures.openFailed(e) };
      // Our own errors (a missing index file) already say what to do; the JSON error carries no log prefix.
      if (e instanceof SiteSearchError) return { problem: e.message.replace(/^\[site-search\] /, '') };
      console.error('[site-search] opening the database failed:', e);
      return { problem: `Search database could not be opened: ${(e as Error).message}` };
    }
    if (!isSearchDatabase(db)) return { problem: missingBinding(config.binding, db) };
    const damaged = failures?.damaged(db);
    return damaged ? { problem: damaged } : { db };
  };
}
