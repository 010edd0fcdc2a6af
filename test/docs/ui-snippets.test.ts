/**
 * docs/ui.md's Next.js snippets, type-checked as `next build` checks them: the client component and the full results
 * page are taken from the page verbatim (by the file name on their first line), written into a scratch project inside
 * this repository and compiled with strict TypeScript against React 19's types, the package's own `site-search/ui`
 * types (which declare `<site-search>`: no declaration of the user's own) and Next 16's `next/navigation` from the
 * Next test app.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { docBlock } from '../helpers/doc-blocks.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const NEXT = join(root, 'test/frameworks/apps/next16/node_modules/next');
const scratch = join(root, 'test/docs/.scratch-next');

/** Compiles the files with the settings a Next 16 app uses; returns tsc's output ('' when it type-checks). */
function typecheck(files: Record<string, string>): string {
  rmSync(scratch, { recursive: true, force: true });
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(scratch, name)), { recursive: true });
    writeFileSync(join(scratch, name), text);
  }
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

describe('docs/ui.md, Next.js (no declaration of the user\'s own: the package types <site-search>, issue 37 item 7)', () => {
  const component = docBlock('docs/ui.md', 'app/search-box.tsx');
  const resultsPage = docBlock('docs/ui.md', 'app/search/page.tsx');

  it('the client component and the full results page type-check as pasted, with no .d.ts beside them', () => {
    expect(typecheck({ 'app/search-box.tsx': component, 'app/search/page.tsx': resultsPage })).toBe('');
  }, 60_000);

  it('the package\'s JSX types are in force: an attribute of the wrong type fails', () => {
    const wrong = resultsPage.replace('limit={20}', 'limit={{ n: 20 }}').replace('endpoint="/api/search"', 'endpoint={1}');
    expect(wrong).not.toBe(resultsPage);
    const out = typecheck({ 'app/search/page.tsx': wrong });
    expect(out).toMatch(/page\.tsx\(\d+,\d+\): error TS2322/);
    expect(out.match(/error TS/g)).toHaveLength(2);
  }, 60_000);
});
