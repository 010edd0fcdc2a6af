/**
 * Builds and starts a real framework app from test/frameworks/apps (installed by test/frameworks/install.sh), and the
 * core handler over the same index, so a test can compare them field by field.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { openSqlite } from '../../adapters/node.js';
import { createSearchHandler, type SearchHandler } from '../../src/index.js';
import { mountReadOnly } from '../helpers/read-only-mount.js';
import { lastLines } from '../helpers/output.js';
import options from './fixture/search.config.mjs';

const run = promisify(execFile);
const ROOT = new URL('../..', import.meta.url).pathname;
export const FIXTURE = join(ROOT, 'test/frameworks/fixture');
const CLI = join(ROOT, 'dist/cli.js');
/** `node SERVE_FUNCTION vercel PORT` or `netlify PORT ENTRY`: serves a built serverless function (serve-function.mjs). */
export const SERVE_FUNCTION = join(ROOT, 'test/frameworks/serve-function.mjs');
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

/**
 * How long an app may take to answer its first request. A framework's server answers within seconds when the machine is
 * idle; on a loaded 2-core machine `astro dev` took over 30 s (the old cap, which failed a suite that was not hung).
 * A hang still fails, with the app's last output, before the suites' hooks (180 s and more around a start) time out.
 */
export const APP_START_CAP_MS = 120_000;

/**
 * Starts `command` in `cwd` and waits until `origin` answers HTTP (polled every 100 ms). Rejects at once when the app
 * exits, or after `capMs`, stopping it, with its last output in the message.
 */
export async function start(
  command: string[],
  { cwd, port, env = {}, capMs = APP_START_CAP_MS }: { cwd: string; port: number; env?: Record<string, string>; capMs?: number },
): Promise<RunningApp> {
  const child: ChildProcess = spawn(command[0]!, command.slice(1), { cwd, env: { ...ENV, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const origin = `http://127.0.0.1:${port}`;
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) {
      process.kill(-child.pid!, signal);
      await new Promise((resolve) => child.once('exit', resolve));
    }
  };
  const started = Date.now();
  while (Date.now() - started < capMs) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${command.join(' ')} exited (${child.exitCode ?? child.signalCode}) before answering on ${origin}. Its output:\n${lastLines(output)}`);
    }
    try {
      // A server that accepts the connection but never answers is not up: each try is bounded too.
      await fetch(`${origin}/`, { signal: AbortSignal.timeout(Math.max(1, Math.min(10_000, capMs - (Date.now() - started)))) });
      return { origin, output: () => output, stop };
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  // Taken for hung: SIGKILL, which it cannot put off.
  await stop('SIGKILL');
  throw new Error(`${command.join(' ')} did not answer on ${origin} within ${capMs / 1000} s (stopped). Its last output:\n${lastLines(output)}`);
}

/**
 * A copy of a build's `folder` (a serverless function, Next's standalone server) under a read-only bind mount, and
 * `command` started with the mount as its working directory, as the host runs it. `stop` also unmounts and deletes.
 */
export async function startReadOnlyCopy(folder: string, command: (port: number) => string[], env: Record<string, string> = {}): Promise<RunningApp & { path: string }> {
  const copy = mkdtempSync(join(tmpdir(), 'site-search-read-only-copy-'));
  let mount: ReturnType<typeof mountReadOnly> | undefined;
  try {
    cpSync(folder, copy, { recursive: true, verbatimSymlinks: true });
    mount = mountReadOnly(copy);
    const port = await freePort();
    const app = await start(command(port), { cwd: mount.path, port, env: { ...env, PORT: String(port) } });
    const path = mount.path;
    return {
      origin: app.origin,
      output: app.output,
      path,
      stop: async () => {
        await app.stop();
        mount!.unmount();
        rmSync(copy, { recursive: true, force: true });
      },
    };
  } catch (e) {
    mount?.unmount();
    rmSync(copy, { recursive: true, force: true });
    throw e;
  }
}

/** The code block of the docs page `page` (e.g. `docs/frameworks/next.md`) whose first line is `first`, unindented. */
export function docsBlock(page: string, first: string): string {
  const text = readFileSync(join(ROOT, page), 'utf8');
  for (const [, indent, body] of text.matchAll(/^( *)```\w*\n([\s\S]*?)^ *```$/gm)) {
    const lines = body!.split('\n').map((l) => l.slice(indent!.length));
    if (lines[0] === first) return lines.join('\n');
  }
  throw new Error(`${page} has no code block starting with ${first}`);
}

/** The core handler over the SQLite index the test built: what every framework must answer. */
export function coreHandler(sqlitePath: string): SearchHandler {
  return createSearchHandler(options, { db: openSqlite(sqlitePath), cache: false });
}

/**
 * Asks a running app a few searches and checks each answers 200 with results, the same as the core handler over the
 * index at `sqlitePath`, field by field.
 */
export async function expectAnswersLikeCore(app: RunningApp, sqlitePath: string): Promise<void> {
  const core = coreHandler(sqlitePath);
  for (const query of ['?q=install', '?q=launch&type=post']) {
    const res = await fetch(`${app.origin}/api/search${query}`);
    expect(res.status, query).toBe(200);
    const body = (await res.json()) as { query: string; results: { url: string }[] };
    expect(body.results.length, query).toBeGreaterThan(0);
    const expected = (await (await core(new Request(`${app.origin}/api/search${query}`))).json()) as typeof body;
    expect(withoutOrigin(body)).toEqual(withoutOrigin(expected));
  }
}

/** Results with the origin removed from URLs, so answers served on different origins compare field by field. */
export function withoutOrigin<R extends { url: string }>(body: { query: string; results: R[] }) {
  return { ...body, results: body.results.map((r) => ({ ...r, url: new URL(r.url).pathname })) };
}
