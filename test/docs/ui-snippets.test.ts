/**
 * docs/ui.md's Next.js snippets, type-checked as `next build` checks them: the client component and the JSX
 * declaration for `<site-search>` are taken from the page verbatim (by the file name on their first line), written
 * into a scratch project inside this repository and compiled with strict TypeScript against React 19's types, the
 * package's own `site-search/ui` types and Next 16's `next/navigation` from the Next test app.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const NEXT = join(root, 'test/frameworks/apps/next16/node_modules/next');
const scratch = join(root, 'test/docs/.scratch-next');

/** The fenced block of `page` whose first line is the comment `// <file>`. */
function docBlock(page: string, file: string): string {
  const text = readFileSync(join(root, page), 'utf8');
  for (const [, body] of text.matchAll(/^ *```\w*\n([\s\S]*?)^ *```$/gm)) {
    if (body!.split('\n', 1)[0]!.trim() === `// ${file}`) return body!;
  }
  throw new Error(`${page} has no code block starting with // ${file}`);
}

/** Compiles the files with the settings a Next 16 app uses; returns tsc's output ('' when it type-checks). */
function typecheck(files: Record<string, string>): string {
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(join(scratch, 'app'), { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(scratch, name), text);
  writeFileSync(
    join(scratch, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true, noEmit: true, jsx: 'preserve', module: 'esnext', moduleResolution: 'bundler', target: 'es2022',
        lib: ['dom', 'dom.iterable', 'esnext'], skipLibCheck: true, types: [],
        paths: { 'next/navigation': [join(NEXT, 'navigation.d.ts')] },
      },
      include: ['**/*.ts', '**/*.tsx'],
    }),
  );
  try {
    execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', scratch], { encoding: 'utf8', stdio: 'pipe' });
    return '';
  } catch (e) {
    return (e as { stdout: string }).stdout;
  }
}

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('docs/ui.md, Next.js', () => {
  const component = docBlock('docs/ui.md', 'app/search-box.tsx');
  const declaration = docBlock('docs/ui.md', 'site-search.d.ts');

  it('the client component and the <site-search> declaration type-check as pasted', () => {
    expect(typecheck({ 'app/search-box.tsx': component, 'site-search.d.ts': declaration })).toBe('');
  }, 60_000);

  it('the check fails when the declaration lacks an attribute the component uses (as it once lacked placeholder)', () => {
    const without = declaration.replace(' placeholder?: string;', '');
    expect(without).not.toBe(declaration);
    expect(typecheck({ 'app/search-box.tsx': component, 'site-search.d.ts': without })).toMatch(/placeholder/);
  }, 60_000);
});
