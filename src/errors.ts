/** Errors thrown by site-search. Every message starts with `[site-search]` so it is easy to spot in a build log. */

const PREFIX = '[site-search]';

/** Base class of every error site-search throws on purpose. */
export class SiteSearchError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message.startsWith(PREFIX) ? message : `${PREFIX} ${message}`, options);
    this.name = 'SiteSearchError';
  }
}

/** Invalid options. `problems` holds one `path: message` line per problem, all of them, not only the first. */
export class SiteSearchConfigError extends SiteSearchError {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid search options:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'SiteSearchConfigError';
    this.problems = problems;
  }
}

/**
 * A search request the endpoint answers with 400. `message` is exactly the text of the HTTP `error` field
 * (no prefix), because docs/http-api.md documents some of those texts as they are.
 */
export class SearchInputError extends Error {
  readonly status = 400;
  constructor(message: string) {
    super(message);
    this.name = 'SearchInputError';
  }
}

/**
 * The 500 for a local SQLite index that is not there: the path as configured (never resolved: the answer goes to every
 * visitor, and the server's folders are none of theirs), where a relative one is looked for, and the fix.
 * @internal
 */
export function missingIndexMessage(path: string): string {
  return `Local search index not found at ${path}${relativeTo(path)}. Run "npx site-search index" in your project folder, and start the server from there.`;
}

/**
 * What a site with the `mcp` option on is told when the optional peer dependency is not installed. A bundler's own
 * words name an export or a virtual module (Vite: `"readRequestBody" is not exported by
 * "__vite-optional-peer-dep:@modelcontextprotocol/server:site-search"`), not the package to install.
 * @internal
 */
export const MISSING_MCP_SDK_MESSAGE = '[site-search] mcp: true needs @modelcontextprotocol/server: npm install @modelcontextprotocol/server (docs/mcp.md)';

/**
 * The message for a folder where the local index file should be: SQLite's own words for it are "disk I/O error",
 * which names neither the path nor the fix.
 * @internal
 */
export function folderNotIndexMessage(path: string): string {
  return `The search index at ${path}${relativeTo(path)} is a folder, not a file. Remove the folder and run "npx site-search index", or point sqlitePath at the index file.`;
}

/**
 * Whether a database error says the file is damaged: SQLite's `SQLITE_CORRUPT` ("database disk image is malformed",
 * also from FTS5's tables) or `SQLITE_NOTADB` ("file is not a database"), by their codes where the driver gives them
 * (node:sqlite's `errcode`, better-sqlite3's `code`) and by their text where it does not (a statement run elsewhere).
 * @internal
 */
export function isDamagedIndexError(e: unknown): boolean {
  const { errcode, code, message } = (e ?? {}) as { errcode?: unknown; code?: unknown; message?: unknown };
  if (typeof errcode === 'number' && [11, 26].includes(errcode & 0xff)) return true;
  if (typeof code === 'string' && /^SQLITE_(CORRUPT|NOTADB)/.test(code)) return true;
  return typeof message === 'string' && /database disk image is malformed|file is not a database|fts5: corrupt/i.test(message);
}

/** What to do about a damaged index: the one fix, named the same way everywhere. @internal */
export const REBUILD_DAMAGED_INDEX = 'Rebuild it with "npx site-search index --full"';

/**
 * The 500 (and the log line) for a local index file that exists but is damaged or is not an index: the path as
 * configured, as {@link missingIndexMessage} gives it, what SQLite said, and the fix (the next request opens it again,
 * so no restart is needed).
 * @internal
 */
export function damagedIndexMessage(path: string, reason: string): string {
  return `Search index is damaged: ${path}${relativeTo(path)} (${reason}). ${REBUILD_DAMAGED_INDEX}.`;
}

/** Where a relative path is looked for, for a message that shows the path as configured. */
function relativeTo(path: string): string {
  return /^([A-Za-z]:)?[\\/]/.test(path) ? '' : ' (relative to the folder the server was started in)';
}
