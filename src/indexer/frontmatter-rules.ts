import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SiteSearchError } from '../errors.js';
import type { ResolvedConfig } from '../options/options.js';
import type { IndexWarning } from './document.js';
import { echoText } from './echo.js';

/**
 * A framework's frontmatter rules, for the sources that name them (`frontmatter: 'starlight'`): a page the framework
 * rejects is never built, so it must not be a search result that opens on a missing page (attack round 3). The rules
 * are the framework's own, loaded from the project, so they change when the project upgrades it.
 */
export type FrontmatterRules = NonNullable<ResolvedConfig['sources'][number]['frontmatter']>;

/** Where each set of rules the sources name was found in the project: plain data, so it crosses to the parse threads. */
export type FrontmatterRuleModules = Partial<Record<FrontmatterRules, { schema: string; zod: string }>>;

/** The first problem the rules find in a page's frontmatter (`sidebar.order: …`), or undefined when it passes. */
export type FrontmatterCheck = (data: Record<string, unknown>) => string | undefined;
export type FrontmatterChecks = Partial<Record<FrontmatterRules, FrontmatterCheck>>;

/**
 * Finds, from `cwd` up, the modules of the rules the sources name; a source naming rules the project lacks is an error.
 * Rules Node cannot load (Starlight before 0.42 publishes its schema as TypeScript source) are left out, with one
 * warning in `warnings`: the index is still built, without the check.
 */
export function findFrontmatterRules(config: ResolvedConfig, cwd: string, warnings: IndexWarning[] = []): FrontmatterRuleModules {
  const index = config.sources.findIndex((s) => s.frontmatter === 'starlight');
  if (index < 0) return {};
  const require = createRequire(join(cwd, 'package.json'));
  const dir = (require.resolve.paths('@astrojs/starlight') ?? []).map((modules) => join(modules, '@astrojs/starlight')).find((d) => existsSync(join(d, 'package.json')));
  if (!dir) {
    throw new SiteSearchError(
      `sources[${index}].frontmatter is "starlight", but @astrojs/starlight is not installed in ${cwd} or a folder above it. Install it (npm install @astrojs/starlight), or remove "frontmatter" from the source.`,
    );
  }
  // Its package exports "./schema" for `import` only, which require.resolve cannot follow: read the entry it names.
  const exported = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { exports?: Record<string, unknown> }).exports?.['./schema'];
  const entry = typeof exported === 'string' ? exported : (exported as { import?: string } | undefined)?.import;
  if (!entry) throw new SiteSearchError(`The @astrojs/starlight in ${dir} has no "./schema" export, which site-search needs for sources[${index}].frontmatter. Update Starlight (0.32 or later).`);
  if (/\.[cm]?tsx?$/.test(entry)) {
    const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version?: string };
    warnings.push({
      file: join(dir, 'package.json'),
      message: `Starlight ${version ?? ''} publishes its frontmatter schema as TypeScript, which Node does not load from node_modules: pages are indexed without Starlight's frontmatter check (a page it rejects stops astro build anyway). Starlight 0.42 or later turns the check on.`.replace('  ', ' '),
    });
    return {};
  }
  // The zod Starlight's schema is built with (a second copy would not mix with it).
  const zod = createRequire(join(dir, 'package.json')).resolve('astro/zod');
  return { starlight: { schema: pathToFileURL(join(dir, entry)).href, zod: pathToFileURL(zod).href } };
}

interface ZodIssue {
  path: PropertyKey[];
  message: string;
}
interface ZodLike {
  safeParse(data: unknown): { success: true } | { success: false; error: { issues: ZodIssue[] } };
}

/** Loads the rules found by {@link findFrontmatterRules}, once per thread that parses pages. */
export async function loadFrontmatterChecks(modules: FrontmatterRuleModules): Promise<FrontmatterChecks> {
  if (!modules.starlight) return {};
  const { docsSchema } = (await import(modules.starlight.schema)) as { docsSchema: () => (context: { image: () => unknown }) => ZodLike };
  const { z } = (await import(modules.starlight.zod)) as { z: { string: () => unknown } };
  // Astro's content layer checks an image field as a string (the file is resolved later, when the page is built).
  const schema = docsSchema()({ image: () => z.string() });
  return { starlight: (data) => firstProblem(schema, data) };
}

function firstProblem(schema: ZodLike, data: Record<string, unknown>): string | undefined {
  let result: ReturnType<ZodLike['safeParse']>;
  try {
    result = schema.safeParse(data);
  } catch (e) {
    // A rule zod can only run asynchronously: Astro runs it at build, and site-search cannot judge the page by it.
    if (/async|promise/i.test((e as Error).message)) return undefined;
    throw e;
  }
  if (result.success) return undefined;
  const [first, ...more] = result.error.issues;
  const field = first!.path.map(String).join('.') || '(the frontmatter)';
  return `${field}: ${echoText(first!.message)}${more.length > 0 ? ` (and ${more.length} more)` : ''}`;
}
