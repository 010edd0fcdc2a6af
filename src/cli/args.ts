import { parseArgs } from 'node:util';
import { SiteSearchError } from '../errors.js';

/** The CLI's commands. */
export const COMMANDS = ['index', 'dev', 'query', 'check', 'stats', 'llms'] as const;

const OPTIONS = {
  config: { type: 'string', short: 'c' },
  sqlite: { type: 'string' },
  d1: { type: 'string' },
  out: { type: 'string' },
  port: { type: 'string', default: '4545' },
  host: { type: 'string', default: '127.0.0.1' },
  type: { type: 'string' },
  tags: { type: 'string' },
  facets: { type: 'string' },
  limit: { type: 'string' },
  json: { type: 'boolean' },
  days: { type: 'string' },
  html: { type: 'string' },
  from: { type: 'string' },
  engine: { type: 'string' },
  origin: { type: 'string' },
  full: { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  cors: { type: 'boolean' },
  debug: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export type Flags = Record<string, string | boolean | undefined>;

/** A command line read by {@link parseCommandLine}. */
export interface CommandLine {
  /** Undefined when none was given (the usage is printed). */
  command?: (typeof COMMANDS)[number];
  /** What follows the command: a folder, or the query's text then a folder. */
  positionals: string[];
  flags: Flags;
  /** Arguments after `--`, passed on to wrangler. */
  wranglerArgs: string[];
}

/**
 * Reads `site-search`'s arguments (without `node` and the script): an unknown command or option, or a `--d1` that is
 * neither `local` nor `remote`, throws with the fix. Exported so that the commands the docs show (a CI workflow) are
 * checked against the same parser.
 */
export function parseCommandLine(argv: string[]): CommandLine {
  const dashes = argv.indexOf('--');
  const { values, positionals } = parseArgs({ args: dashes === -1 ? argv : argv.slice(0, dashes), allowPositionals: true, options: OPTIONS });
  const [command, ...rest] = positionals;
  if (command !== undefined && !(COMMANDS as readonly string[]).includes(command)) {
    throw new SiteSearchError(`Unknown command "${command}". Commands: ${COMMANDS.join(', ')} (site-search --help).`);
  }
  if (values.d1 !== undefined && values.d1 !== 'local' && values.d1 !== 'remote') throw new SiteSearchError(`--d1 must be "local" or "remote", not "${values.d1}".`);
  return { command: command as CommandLine['command'], positionals: rest, flags: values, wranglerArgs: dashes === -1 ? [] : argv.slice(dashes + 1) };
}
