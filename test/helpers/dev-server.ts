import { spawn, type ChildProcess } from 'node:child_process';
import { lastLines } from './output.js';

const CLI = new URL('../../dist/cli.js', import.meta.url).pathname;

/**
 * How long `site-search dev` may take to print its URL. It prints it within a second or two (after building the index),
 * so only a hang gets near this, on a loaded machine too; it stays under Vitest's hook timeout (120 s), so this clear
 * failure comes first.
 */
export const DEV_SERVER_START_CAP_MS = 100_000;

/**
 * `site-search dev` as a user starts it (a child process); resolves once it prints the URL it serves. Rejects when it
 * exits first or prints no URL within `capMs`, with its last output (stdout and stderr) in the message.
 */
export async function startDevServer(args: string[], cwd: string, { capMs = DEV_SERVER_START_CAP_MS } = {}): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [CLI, 'dev', ...args], { cwd, env: { ...process.env, CI: 'true' } });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      // A process past the cap is taken for hung: SIGKILL, which it cannot put off (a SIGTERM sent while it was still
      // starting once left one running).
      child.kill('SIGKILL');
      reject(new Error(`site-search dev ${args.join(' ')} printed no URL within ${capMs / 1000} s. Its last output:\n${lastLines(out)}`));
    }, capMs);
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /search page: (http:\/\/[\d.:]+)\//.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.stderr!.on('data', (d) => (out += d));
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`site-search dev ${args.join(' ')} exited (${code ?? signal}) before printing its URL. Its output:\n${lastLines(out)}`));
    });
  });
  return { child, url };
}
