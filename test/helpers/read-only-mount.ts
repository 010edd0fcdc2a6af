import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * `dir` seen through a read-only bind mount, as a serverless function or a read-only container sees its files. A
 * chmod does not stop root (the tests run as root in CI), a read-only mount does, for root too. `unmount` is lazy: a
 * file a failed test left open must not keep the mount around.
 */
export function mountReadOnly(dir: string): { path: string; unmount(): void } {
  const path = mkdtempSync(join(tmpdir(), 'site-search-ro-'));
  try {
    execFileSync('mount', ['--bind', dir, path], { stdio: 'pipe' });
  } catch (e) {
    rmSync(path, { recursive: true, force: true });
    throw new Error(`a read-only bind mount is needed (mount as root, as in CI): ${(e as Error).message}`);
  }
  const unmount = () => {
    execFileSync('umount', ['--lazy', path]);
    rmSync(path, { recursive: true, force: true });
  };
  try {
    execFileSync('mount', ['-o', 'remount,ro,bind', path], { stdio: 'pipe' });
    writeFileSync(join(path, '.read-only-probe'), 'x');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EROFS') return { path, unmount };
    unmount();
    throw e;
  }
  unmount();
  throw new Error(`${path} was still writable after remount,ro`);
}
