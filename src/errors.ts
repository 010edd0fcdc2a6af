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
  const where = /^([A-Za-z]:)?[\\/]/.test(path) ? '' : ' (relative to the folder the server was started in)';
  return `Local search index not found at ${path}${where}. Run "npx site-search index" in your project folder, and start the server from there.`;
}
