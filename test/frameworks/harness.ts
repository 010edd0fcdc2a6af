/**
 * Builds and starts a real framework app from test/frameworks/apps (installed by test/frameworks/install.sh), and the
 * core handler over the same index, so a test can compare them field by field.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { openSqlite } from '../../adapters/node.js';
import { createSearchHandler, type SearchHandler } from '../../src/index.js';
import options from './fixture/search.config.mjs';

const run = promisify(execFile);
const ROOT = new URL('../..', import.meta.url).pathname;
export const FIXTURE = join(ROOT, 'test/frameworks/fixture');
const CLI = join(ROOT, 'dist/cli.js');
/**
 * The apps run as a user runs them: without Vitest's own variables (with VITEST set, `astro dev` 7 injects no
 * integration routes) nor its NODE_ENV=test.
 */
const userEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== 'NODE_ENV'));
const ENV = { ...userEnv, ASTRO_TELEMETRY_DISABLED: '1', NEXT_TELEMETRY_DISABLED: '1', WRANGLER_SEND_METRICS: 'false', CI: 'true' };

export { options };

/** A started app: its origin, what it printed so far, and how to stop it. */
export interface RunningApp {
  origin: string;
  output(): string;
  stop(): Promise<void>;
}

export function appDir(name: string): string {
  const dir = join(ROOT, 'test/frameworks/apps', name);
  if (!existsSync(join(dir, 'node_modules'))) throw new Error(`${name} is not installed: run bash test/frameworks/install.sh`);
  return dir;
}

/** Copies the shared options into the app and indexes the fixture into its local SQLite file. */
export async function indexFixture(name: string): Promise<string> {
  const dir = appDir(name);
  copyFileSync(join(FIXTURE, 'search.config.mjs'), join(dir, 'search.config.mjs'));
  await indexInto(dir, join(FIXTURE, 'search.config.mjs'));
  return dir;
}

/** Runs `site-search index` with the options file `config` into the app's local SQLite file, as a user re-indexes. */
export async function indexInto(dir: string, config: string): Promise<void> {
  await run(process.execPath, [CLI, 'index', '--config', config, '--sqlite', join(dir, '.site-search/search.db')], { env: ENV });
}

/** {@link indexFixture}, then the app's production build. */
export async function prepare(name: string, build: string[]): Promise<string> {
  await indexFixture(name);
  return buildApp(name, build);
}

/** Runs the app's build (telemetry off, CI set, plus `env`) and returns its directory. */
export async function buildApp(name: string, build: string[], env: Record<string, string> = {}): Promise<string> {
  const dir = appDir(name);
  await run(build[0]!, build.slice(1), { cwd: dir, env: { ...ENV, ...env }, maxBuffer: 64 * 1024 * 1024 });
  return dir;
}

/** Pushes the fixture to the app's local D1 with wrangler, under `state`. */
export async function pushToLocalD1(dir: string, state: string): Promise<void> {
  await run(process.execPath, [CLI, 'index', '--config', join(FIXTURE, 'search.config.mjs'), '--d1', 'local', '--', '--persist-to', state], { cwd: dir, env: ENV });
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Starts `command` in `cwd` and waits until `origin` answers HTTP. */
export async function start(command: string[], { cwd, port, env = {} }: { cwd: string; port: number; env?: Record<string, string> }): Promise<RunningApp> {
  const child: ChildProcess = spawn(command[0]!, command.slice(1), { cwd, env: { ...ENV, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const origin = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      process.kill(-child.pid!, 'SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  };
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`${command.join(' ')} exited (${child.exitCode}):\n${output}`);
    try {
      await fetch(`${origin}/`);
      return { origin, output: () => output, stop };
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  await stop();
  throw new Error(`${command.join(' ')} did not answer on ${origin} within 30 s:\n${output}`);
}

/** The core handler over the SQLite index the test built: what every framework must answer. */
export function coreHandler(sqlitePath: string): SearchHandler {
  return createSearchHandler(options, { db: openSqlite(sqlitePath), cache: false });
}

/** Results with the origin removed from URLs, so answers served on different origins compare field by field. */
export function withoutOrigin<R extends { url: string }>(body: { query: string; results: R[] }) {
  return { ...body, results: body.results.map((r) => ({ ...r, url: new URL(r.url).pathname })) };
}
