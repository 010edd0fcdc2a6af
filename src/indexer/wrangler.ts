import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { SiteSearchError } from '../errors.js';
import { resolveConfig } from '../options/config.js';
import type { ResolvedConfig, SearchOptions } from '../options/options.js';

const CONFIG_FILES = ['wrangler.toml', 'wrangler.json', 'wrangler.jsonc'] as const;

/** The result of {@link checkDatabaseConfig}. `ok: false` carries a message that says what to change, and a snippet. */
export type DatabaseCheck =
  | { ok: true; file: string; environment?: string }
  | { ok: false; problem: 'no-config' | 'unreadable' | 'no-database' | 'binding-mismatch'; message: string; snippet?: string; file?: string };

interface D1Entry {
  binding?: unknown;
  database_name?: unknown;
  environment?: string;
}

/**
 * Checks that the wrangler config in `cwd` declares the D1 database the options name, under the binding the endpoint
 * reads (top level or any `env.*`). Never throws: the integration and the CLI print the message as a warning.
 */
export function checkDatabaseConfig(options: SearchOptions | ResolvedConfig, cwd: string = process.cwd()): DatabaseCheck {
  const config = resolveConfig(options);
  const name = CONFIG_FILES.find((f) => existsSync(join(cwd, f)));
  if (!name) {
    // wrangler.jsonc is what current Astro, OpenNext and SvelteKit guides create.
    const snippet = `{\n  ${jsonSnippet(config).replace(/\n/g, '\n  ')}\n}`;
    return {
      ok: false,
      problem: 'no-config',
      snippet,
      message: `[site-search] No wrangler config in ${cwd} (looked for ${CONFIG_FILES.join(', ')}). The endpoint reads the D1 binding "${config.binding}"; create wrangler.jsonc with:\n\n${snippet}`,
    };
  }
  const file = join(cwd, name);
  let parsed: unknown;
  try {
    parsed = readConfig(file);
  } catch (e) {
    return { ok: false, problem: 'unreadable', file, message: `[site-search] ${name} could not be parsed: ${(e as Error).message}` };
  }

  const entries = d1Entries(parsed);
  const named = entries.filter((e) => e.database_name === config.database);
  const match = named.find((e) => e.binding === config.binding);
  if (match) return { ok: true, file, environment: match.environment };

  const snippet = name === 'wrangler.toml' ? tomlSnippet(config) : jsonSnippet(config);
  if (named.length === 0) {
    const found = entries.map((e) => `"${String(e.database_name)}"`).join(', ');
    return {
      ok: false,
      problem: 'no-database',
      file,
      snippet,
      message: `[site-search] ${name} has no d1_databases entry with database_name "${config.database}"${found ? ` (found ${found})` : ''}. Add:\n\n${snippet}`,
    };
  }
  const actual = String(named[0]!.binding);
  return {
    ok: false,
    problem: 'binding-mismatch',
    file,
    snippet,
    message: `[site-search] In ${name}, the d1_databases entry for "${config.database}" has binding "${actual}", but site-search reads "${config.binding}". Set ${name.endsWith('.toml') ? `binding = "${config.binding}"` : `"binding": "${config.binding}"`} in ${name}, or binding: "${actual}" in your search options.`,
  };
}

function readConfig(file: string): unknown {
  const text = readFileSync(file, 'utf8');
  if (file.endsWith('.toml')) return parseToml(text);
  const errors: ParseError[] = [];
  const value = parseJsonc(text, errors, { allowTrailingComma: true });
  if (errors.length) {
    const first = errors[0]!;
    const line = text.slice(0, first.offset).split('\n').length;
    throw new Error(`${printParseErrorCode(first.error)} at line ${line}`);
  }
  return value;
}

function d1Entries(config: unknown): D1Entry[] {
  const list = (value: unknown, environment?: string): D1Entry[] =>
    Array.isArray(value) ? value.filter((e) => e && typeof e === 'object').map((e) => ({ ...(e as D1Entry), environment })) : [];
  const root = (config ?? {}) as { d1_databases?: unknown; env?: Record<string, { d1_databases?: unknown }> };
  const inEnvs = Object.entries(root.env ?? {}).flatMap(([env, value]) => list(value?.d1_databases, env));
  return [...list(root.d1_databases), ...inEnvs];
}

function tomlSnippet(config: ResolvedConfig): string {
  return `[[d1_databases]]\nbinding = "${config.binding}"\ndatabase_name = "${config.database}"\ndatabase_id = "<id printed by: npx wrangler d1 create ${config.database}>"`;
}

function jsonSnippet(config: ResolvedConfig): string {
  return `"d1_databases": [\n  {\n    "binding": "${config.binding}",\n    "database_name": "${config.database}",\n    "database_id": "<id printed by: npx wrangler d1 create ${config.database}>"\n  }\n]`;
}

/**
 * Runs `wrangler d1 execute <database> --local|--remote --file <file> --yes` in `cwd`, with the project's own wrangler
 * when it has one. Rejects with wrangler's own error output.
 */
export async function executeD1File(
  database: string,
  file: string,
  { remote, cwd, args = [] }: { remote: boolean; cwd: string; args?: string[] },
): Promise<string> {
  return runWrangler(database, ['--file', file, '--yes'], { remote, cwd, args });
}

/**
 * Runs read-only SQL on the D1 database through `wrangler d1 execute --command … --json` and returns each
 * statement's rows. Statements are separated by `;` in one call (one wrangler start).
 */
export async function queryD1(
  database: string,
  statements: string[],
  { remote, cwd, args = [] }: { remote: boolean; cwd: string; args?: string[] },
): Promise<Record<string, unknown>[][]> {
  const output = await runWrangler(database, ['--command', statements.join(';\n'), '--json'], { remote, cwd, args }, true);
  const start = output.indexOf('[');
  const parsed = JSON.parse(start === -1 ? output : output.slice(start)) as { results?: Record<string, unknown>[] }[];
  return parsed.map((r) => r.results ?? []);
}

/**
 * A local D1 is a SQLite file that `wrangler dev` (or another local runtime) may hold while a push runs: a statement
 * then fails with SQLITE_BUSY, and wrangler rolls its file back. Such a failure is tried again, a few times.
 */
const LOCAL_BUSY_RETRIES = 5;

async function runWrangler(
  database: string,
  what: string[],
  { remote, cwd, args = [] }: { remote: boolean; cwd: string; args?: string[] },
  stdoutOnly = false,
): Promise<string> {
  const bin = findWrangler(cwd);
  const [command, prefix] = bin ? [process.execPath, [bin]] : ['npx', ['--yes', 'wrangler']];
  const argv = [...prefix, 'd1', 'execute', database, remote ? '--remote' : '--local', ...what, ...args];
  for (let attempt = 0; ; attempt++) {
    const stdout: string[] = [];
    const output: string[] = [];
    const code = await new Promise<number>((resolve, reject) => {
      const child = spawn(command, argv, { cwd, env: { WRANGLER_SEND_METRICS: 'false', ...compileCache(bin), ...process.env }, stdio: ['ignore', 'pipe', 'pipe'] });
      // Decoded as a stream: a chunk may end inside a character, and decoding chunks one by one garbled it (a word read
      // back from the database then differed from the page's, and every push removed and inserted it again).
      child.stdout.setEncoding('utf8');
      child.stderr.setEncoding('utf8');
      child.stdout.on('data', (d: string) => (stdout.push(d), output.push(d)));
      child.stderr.on('data', (d: string) => output.push(d));
      child.on('error', reject);
      child.on('close', (c) => resolve(c ?? 1));
    });
    if (code === 0) return (stdoutOnly ? stdout : output).join('');
    const text = output.join('');
    if (!remote && attempt < LOCAL_BUSY_RETRIES && /SQLITE_BUSY|database is locked/i.test(text)) {
      await new Promise((r) => setTimeout(r, 300 * (attempt + 1)));
      continue;
    }
    const tail = text.trim().split('\n').slice(-15).join('\n');
    throw new SiteSearchError(`wrangler d1 execute ${database} failed (exit ${code}):\n${tail}`);
  }
}

/**
 * Node's compile cache for wrangler, beside it in `node_modules/.cache`: each call compiles wrangler's 15 MB bundle
 * again otherwise (measured by hand: 1.68 s of CPU a call with the cache, 1.88 s without, 4 alternating calls each).
 * Not in the shared temporary folder, where another user could leave compiled code for it to run.
 */
function compileCache(bin: string | undefined): { NODE_COMPILE_CACHE?: string } {
  const modules = bin?.match(/^(.*[\\/]node_modules)[\\/]wrangler[\\/]/)?.[1];
  return modules ? { NODE_COMPILE_CACHE: join(modules, '.cache', 'site-search-wrangler') } : {};
}

/** The project's wrangler (resolved from `cwd` up), else one installed beside site-search. */
function findWrangler(cwd: string): string | undefined {
  const require = createRequire(import.meta.url);
  try {
    const pkg = require.resolve('wrangler/package.json', { paths: [cwd, dirname(new URL(import.meta.url).pathname)] });
    const bin = (require(pkg) as { bin?: Record<string, string> }).bin?.wrangler;
    return bin ? join(dirname(pkg), bin) : undefined;
  } catch {
    return undefined;
  }
}
