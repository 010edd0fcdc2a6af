import { spawn, type ChildProcess } from 'node:child_process';

const CLI = new URL('../../dist/cli.js', import.meta.url).pathname;

/** `site-search dev` as a user starts it (a child process); resolves once it prints the URL it serves. */
export async function startDevServer(args: string[], cwd: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [CLI, 'dev', ...args], { cwd, env: { ...process.env, CI: 'true' } });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /search page: (http:\/\/[\d.:]+)\//.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`dev exited with ${code}: ${out}`)));
  });
  return { child, url };
}
