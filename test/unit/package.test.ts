/**
 * The built package as users get it: every export resolves with types, and the runtime entries that ship inside
 * Workers import nothing from `node:`. Needs `npm run build` first (the test command does it).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missingOutsideProjectCi } from '../helpers/project-ci.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** Every file an entry loads, following relative imports through the chunks tsup writes. */
function moduleGraph(entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  const code = readFileSync(entry, 'utf8');
  for (const [, spec] of code.matchAll(/(?:from|import)\s*\(?\s*["'](\.[^"']+)["']/g)) moduleGraph(join(dirname(entry), spec!), seen);
  return seen;
}

describe('package.json', () => {
  it('is ESM only, side-effect free except the UI entry (importing it registers <site-search>), and needs a Node whose node:sqlite works without a flag (22.13+, 23.4+)', () => {
    expect(pkg.type).toBe('module');
    expect(pkg.sideEffects).toEqual(['./dist/ui.js']);
    // node:sqlite is unflagged from 22.13 and, in the 23 line, from 23.4; the CLI and Node adapters use it by default.
    expect(pkg.engines.node).toBe('^22.13.0 || >=23.4.0');
  });

  it('scripts/env.sh (behind scripts/dev.sh and the test script) accepts the Node versions engines does, and the README says the same (issue 45)', () => {
    const accepts = (version: string) => {
      try {
        execFileSync(process.execPath, [join(root, 'scripts/node-ok.mjs'), version]);
        return true;
      } catch {
        return false;
      }
    };
    const versions = ['20.19.0', '22.12.0', '22.13.0', '22.18.1', '23.3.0', '23.4.0', '24.0.0', '25.2.1'];
    expect(versions.filter(accepts)).toEqual(['22.13.0', '22.18.1', '23.4.0', '24.0.0', '25.2.1']);
    const env = readFileSync(join(root, 'scripts/env.sh'), 'utf8');
    expect(env).toContain('node "$ROOT/scripts/node-ok.mjs"');
    // No minimum of its own to drift from engines (it said 22.12).
    expect(env).not.toMatch(/\b2[0-9]\.\d+\b/);
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toContain(`Node 22.13+ or 23.4+ (\`engines\`: \`${pkg.engines.node}\``);
  });

  // A component Astro compiles in the app (./starlight/Search.astro) ships as its source, without types.
  const sources = Object.entries(pkg.exports).filter(([, target]) => typeof target === 'string' && target !== './package.json');
  it.each(sources)('export %s is a file the package ships', (_, target) => {
    expect(existsSync(join(root, target as string))).toBe(true);
    expect(pkg.files).toContain((target as string).slice(2));
  });

  it.each(Object.entries(pkg.exports).filter(([, target]) => typeof target !== 'string'))('export %s has built code and types', (_, target) => {
    const { types, default: code } = target as { types: string; default: string };
    expect(existsSync(join(root, code)), `${code} missing: run npm run build`).toBe(true);
    expect(existsSync(join(root, types))).toBe(true);
  });

  it.each(['.', './workers', './analytics', './mcp', './llms', './astro/route', './astro/markdown-middleware', './next', './sveltekit'])('the %s entry imports no node: built-in (it runs in Workers)', (entry) => {
    const file = join(root, (pkg.exports[entry] as { default: string }).default);
    for (const module of moduleGraph(file)) {
      expect(readFileSync(module, 'utf8'), module).not.toMatch(/from\s*["']node:|import\(["']node:|require\(["']node:/);
    }
  });

  it('exports the public API by its documented names, and nothing else (docs/api.md lists every name)', async () => {
    const core = await import(join(root, 'dist/index.js'));
    for (const name of ['createSearchHandler', 'resolveConfig', 'defineSearchOptions', 'searchIndex']) {
      expect(typeof core[name], name).toBe('function');
    }
    expect(Object.keys(core).sort()).toEqual(
      ['SearchInputError', 'SiteSearchConfigError', 'SiteSearchError', 'createMemoryCache', 'createSearchHandler', 'defineSearchOptions', 'isSearchDatabase', 'resolveConfig', 'searchIndex', 'toFtsQuery'],
    );
    expect(Object.keys(await import(join(root, 'dist/indexer.js'))).sort()).toEqual(
      ['buildIndex', 'checkDatabaseConfig', 'newBuildStats', 'pushIndex', 'pushStatements', 'readDocuments', 'toSqlFile', 'writeIndex'],
    );
    expect(Object.keys(await import(join(root, 'dist/node.js'))).sort()).toEqual(['openAnalytics', 'openSqlite', 'toNodeListener']);
    expect(typeof (await import(join(root, 'dist/workers.js'))).createWorker).toBe('function');
    expect(Object.keys(await import(join(root, 'dist/analytics.js')))).toEqual(['recordAnalytics']);
    expect(Object.keys(await import(join(root, 'dist/mcp.js')))).toEqual(['createMcpHandler']);
    expect(Object.keys(await import(join(root, 'dist/llms.js'))).sort()).toEqual(['createLlmsHandler', 'llmsFullTxt', 'llmsTxt']);
  });
});

/**
 * SPEC.md's "Programmatic interface" table: every name in it is a function of the package root. SPEC.md is the
 * project's, in the shared folder beside the checkout (`../shared/SPEC.md`; SPEC_MD overrides the path), there in the
 * project's CI; a clone or a fork's CI without it skips that test, saying so (in the project's CI, `SITE_SEARCH_CI=1`,
 * it fails instead: helpers/project-ci.ts), and checks the copy of the table's names below, which must be kept in step
 * with SPEC.md by hand.
 */
const SPEC_MD = process.env.SPEC_MD ?? join(root, '../shared/SPEC.md');
const SPEC_NAMES_COPY = ['resolveConfig', 'toFtsQuery', 'searchIndex'];

/** The first column of the table under the "Programmatic interface" heading. */
function programmaticNames(spec: string): string[] {
  const section = spec.split(/^#+\s+Programmatic interface\s*$/m)[1]?.split(/^#/m)[0] ?? '';
  return [...section.matchAll(/^\|\s*`([^`]+)`\s*\|/gm)].map((m) => m[1]!);
}

describe("SPEC.md's programmatic interface", () => {
  const exported = async (names: string[]) => {
    expect(names.length).toBeGreaterThanOrEqual(3);
    const core = await import(join(root, 'dist/index.js'));
    for (const name of names) expect(typeof core[name], `${name} is in SPEC.md's programmatic interface`).toBe('function');
  };

  it("is exported from the package root, every name of SPEC.md's table (../shared/SPEC.md), and the copy of the list is the same", async (ctx) => {
    if (!existsSync(SPEC_MD)) {
      ctx.skip(missingOutsideProjectCi(`${SPEC_MD} is absent (a clone without the project's shared folder beside it)`));
    }
    const names = programmaticNames(readFileSync(SPEC_MD, 'utf8'));
    await exported(names);
    expect(names).toEqual(SPEC_NAMES_COPY);
  });

  it('is exported from the package root, every name of the copy of the list', () => exported(SPEC_NAMES_COPY));

  it('toFtsQuery gives the expression docs/api.md shows', async () => {
    const { toFtsQuery } = await import(join(root, 'dist/index.js'));
    const shown = readFileSync(join(root, 'docs/api.md'), 'utf8').match(/^toFtsQuery\('([^']*)'\); \/\/ → '([^']*)'$/m);
    expect(shown, 'docs/api.md shows a toFtsQuery example').not.toBeNull();
    expect(toFtsQuery(shown![1])).toBe(shown![2]);
  });
});

describe('the built types', () => {
  it('carry each option\'s documentation from the schema to what an editor shows for SearchOptions and ResolvedConfig', () => {
    const dir = mkdtempSync(join(tmpdir(), 'site-search-types-'));
    try {
      const file = join(dir, 'check.ts');
      writeFileSync(file, `import type { ResolvedConfig, SearchOptions } from ${JSON.stringify(join(root, 'dist/index.js'))};\nexport let options: SearchOptions;\nexport let config: ResolvedConfig;\n`);
      const program = ts.createProgram([file], { strict: true, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, skipLibCheck: true, target: ts.ScriptTarget.ES2022 });
      const checker = program.getTypeChecker();
      const docs = (variable: string, property: string) => {
        let found = '';
        program.getSourceFile(file)!.forEachChild((node) => {
          if (!ts.isVariableStatement(node)) return;
          const declaration = node.declarationList.declarations[0]!;
          if (declaration.name.getText() !== variable) return;
          const symbol = checker.getTypeAtLocation(declaration.name).getProperty(property);
          found = symbol ? ts.displayPartsToString(symbol.getDocumentationComment(checker)) : '(no such property)';
        });
        return found;
      };
      for (const variable of ['options', 'config']) {
        expect(docs(variable, 'binding'), variable).toMatch(/^Binding name of the database/);
        expect(docs(variable, 'maxLimit'), variable).toMatch(/^Hard cap on `limit`/);
        expect(docs(variable, 'ranking'), variable).toMatch(/^How bm25 is computed/);
      }
      expect(docs('config', 'types')).toMatch(/^The distinct source types/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the tarball npm publishes (npm pack)', () => {
  let dir: string;
  let tarball: string;
  let files: string[];
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'site-search-pack-'));
    const name = execFileSync('npm', ['pack', '--silent', '--pack-destination', dir], { cwd: root, encoding: 'utf8' }).trim().split('\n').pop()!;
    tarball = join(dir, name);
    files = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' }).trim().split('\n').map((f) => f.replace(/^package\//, ''));
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('ships the licence, the README, the code and the user docs, and nothing only the repository needs', () => {
    expect(files).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'package.json', 'dist/index.js', 'dist/cli.js', 'docs/configuration.md', 'docs/frameworks/astro.md']));
    // Run-time code, its types and Markdown only: no screenshot, source maps, tests or benchmark code. The Starlight
    // component ships as source, for Astro to compile in the site; types/ui.d.ts is the hand-written types of
    // site-search/ui (it declares <site-search> for each framework's templates).
    expect(files.filter((f) => !/^(dist\/.*\.(js|d\.ts)|docs\/.*\.md|README\.md|LICENSE|package\.json|adapters\/starlight\/Search\.astro|types\/ui\.d\.ts)$/.test(f))).toEqual([]);
    expect(files).toContain('types/ui.d.ts');
    expect(files).toContain('adapters/starlight/Search.astro');
    expect(pkg.license).toBe('MIT');
    expect(readFileSync(join(root, 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
    for (const field of ['repository', 'homepage', 'bugs', 'keywords']) expect(pkg[field], field).toBeTruthy();
  });

  it('links from the README and the shipped docs only to shipped files or absolute URLs', () => {
    const broken: string[] = [];
    for (const file of files.filter((f) => f.endsWith('.md'))) {
      const text = readFileSync(join(root, file), 'utf8').replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^(https?:|mailto:|#)/.test(target!)) continue;
        const path = posix.normalize(posix.join(posix.dirname(file), target!.split('#')[0]!));
        if (!files.includes(path)) broken.push(`${file} → ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('has types that resolve for ESM importers under node16 and bundler resolution (arethetypeswrong, esm-only profile)', () => {
    // The package is ESM only (no require condition), so CommonJS and node10 resolution are out of its profile.
    const attw = join(root, 'node_modules/.bin/attw');
    // An .astro component is compiled by Astro in the site, not resolved by TypeScript: attw has nothing to check there.
    const args = [tarball, '--profile', 'esm-only', '--format', 'table-flipped', '--exclude-entrypoints', './starlight/Search.astro'];
    const run = () => execFileSync(attw, args, { encoding: 'utf8', stdio: 'pipe' });
    expect(run).not.toThrow();
  }, 60_000);
});
