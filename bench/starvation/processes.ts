/** The child processes the starvation benches run: a server and its attackers, each a `node` process of its own. */
import { spawn, type ChildProcess } from 'node:child_process';

/** Starts `node args…`, resolving with the process and its first stdout line once it prints one. */
export function start(args: string[], cwd?: string): Promise<{ child: ChildProcess; line: string }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], cwd });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve({ child, line: out.slice(0, nl) });
    });
    child.on('exit', (code) => reject(new Error(`[bench] ${args.join(' ')} exited with ${code}`)));
  });
}

/** Stops a process started by {@link start}, resolving once it has exited. */
export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
