import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A throwaway project folder with the given files (path → content). */
export function makeProject(files: Record<string, string>): { dir: string; write(path: string, content: string): void; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'site-search-test-'));
  const write = (path: string, content: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  };
  for (const [path, content] of Object.entries(files)) write(path, content);
  return { dir, write, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
