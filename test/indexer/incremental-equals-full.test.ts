/**
 * An incremental push leaves the index exactly as a full rebuild of the same files would (issue 34, item 2): every
 * table compared (helpers/index-tables.ts), on local SQLite (pushIndex into a file, as the CLI does, with node:sqlite
 * and better-sqlite3) and on D1 (the statements a D1 push hands wrangler, run on a D1 database in Miniflare, with what
 * the push compares with read by the same queries wrangler runs). First an edit at the end of a long page, which a hash
 * that left out the text kept past the cut missed for good (also through the real `wrangler d1 execute --local`);
 * then random sequences of edits, adds, deletes and renames (fast-check).
 */
import { readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlite, type SqliteDriver } from '../../adapters/node.js';
import { resolveConfig, type SearchDatabase } from '../../src/index.js';
import { buildIndex, pushIndex, pushStatements, writeIndex, type IndexDocument, type PushCounts } from '../../src/indexer/index.js';
import { rebuildStatements, schemaStatements } from '../../src/db/schema.js';
import { targetState } from '../../src/indexer/changes.js';
import { changeStatements, targetStateQueries } from '../../src/indexer/sql.js';
import { indexTables } from '../helpers/index-tables.js';
import { makeProject } from '../helpers/project.js';

const config = resolveConfig({ database: 'incremental-full', site: 'docs', sources: [{ dir: 'content', type: 'doc', url: '/docs/:slug/' }] });
const project = makeProject({});
afterAll(() => project.cleanup());

type Tables = Awaited<ReturnType<typeof indexTables>>;

/** A place to push to: incrementally into one index kept across pushes, or whole into a new one. */
interface Target {
  name: string;
  /** Pushes the documents into the kept index as a push without `--full` does; what the push reported, and its tables. */
  incremental(documents: IndexDocument[]): Promise<{ counts?: PushCounts; tables: Tables }>;
  /** A new index holding the documents, as a first push writes it. */
  rebuild(documents: IndexDocument[]): Promise<Tables>;
  /** Empties the kept index. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

function sqliteTarget(driver: SqliteDriver): Target {
  let n = 0;
  let kept = join(project.dir, `kept-${driver.replace(':', '-')}-${n}.db`);
  const read = async (path: string) => {
    // FTS5's integrity-check is run as an INSERT: the file is opened for writing (a server opens it read-only).
    const db = openSqlite(path, { driver, readOnly: false });
    try {
      return await indexTables(db);
    } finally {
      db.close();
    }
  };
  return {
    name: `local SQLite (${driver})`,
    async incremental(documents) {
      const { counts } = await pushIndex(config, { kind: 'sqlite', path: kept, driver }, documents);
      return { counts, tables: await read(kept) };
    },
    async rebuild(documents) {
      const path = join(project.dir, `rebuilt-${driver.replace(':', '-')}-${++n}.db`);
      await pushIndex(config, { kind: 'sqlite', path, driver }, documents, { full: true });
      const tables = await read(path);
      rmSync(path);
      return tables;
    },
    async reset() {
      kept = join(project.dir, `kept-${driver.replace(':', '-')}-${++n}.db`);
    },
    async close() {},
  };
}

/**
 * D1 in Miniflare, written with the SQL a D1 push sends: the difference from what the database holds
 * (changeStatements, given the pages and words the push's own queries read back), or the whole site when it holds none.
 */
function d1Target(): Target {
  const mf = new Miniflare({
    modules: true,
    // The statements run inside workerd, as one batch: Miniflare's proxy makes each prepare() a synchronous call
    // across threads, and under load (two cores, several test files) one such call in thousands once returned
    // another's answer.
    script: `export default {
      async fetch(request, env) {
        const db = env[new URL(request.url).pathname.slice(1)];
        const statements = await request.json();
        try {
          await db.batch(statements.map((sql) => db.prepare(sql)));
          return new Response('ok');
        } catch (e) {
          return new Response(String(e), { status: 500 });
        }
      },
    }`,
    d1Databases: { KEPT: `kept-${process.pid}`, REBUILT: `rebuilt-${process.pid}` },
  });
  const database = async (name: 'KEPT' | 'REBUILT') => (await mf.getD1Database(name)) as unknown as SearchDatabase;
  // One round trip for the whole file, as wrangler sends it (and, like wrangler, all or nothing).
  const run = async (binding: 'KEPT' | 'REBUILT', statements: string[]) => {
    const res = await mf.dispatchFetch(`http://d1.test/${binding}`, { method: 'POST', body: JSON.stringify(statements) });
    if (!res.ok) throw new Error(await res.text());
  };
  const state = async (db: SearchDatabase) => {
    const [pages, words] = targetStateQueries(config.site);
    try {
      return targetState((await db.prepare(pages).all()).results, (await db.prepare(words).all()).results);
    } catch (e) {
      if (/no such table/i.test((e as Error).message)) return undefined;
      throw e;
    }
  };
  return {
    name: 'D1 (Miniflare, the SQL of a D1 push)',
    async incremental(documents) {
      const db = await database('KEPT');
      const found = await state(db);
      if (found && found.pages.size > 0) {
        const plan = changeStatements(config, documents, found);
        await run('KEPT', plan.statements);
        return { counts: plan.counts, tables: await indexTables(db) };
      }
      await run('KEPT', pushStatements(config, documents));
      return { tables: await indexTables(db) };
    },
    async rebuild(documents) {
      const db = await database('REBUILT');
      await run('REBUILT', [...schemaStatements(), ...rebuildStatements(), ...pushStatements(config, documents)]);
      return indexTables(db);
    },
    async reset() {
      await run('KEPT', [...schemaStatements(), ...rebuildStatements()]);
    },
    close: () => mf.dispose(),
  };
}

/** writeIndex through a D1 binding (in Miniflare), as a build script with a binding pushes: statement by statement. */
function d1BindingTarget(): Target {
  const mf = new Miniflare({
    modules: true,
    script: 'export default { fetch() { return new Response("ok") } }',
    d1Databases: { KEPT: `binding-kept-${process.pid}`, REBUILT: `binding-rebuilt-${process.pid}` },
  });
  const database = async (name: string) => (await mf.getD1Database(name)) as unknown as SearchDatabase;
  const empty = async (db: SearchDatabase) => {
    for (const sql of [...schemaStatements(), ...rebuildStatements()]) await db.prepare(sql).run();
  };
  return {
    name: 'D1 binding (writeIndex)',
    async incremental(documents) {
      const db = await database('KEPT');
      const counts = await writeIndex(db, config, documents);
      return { counts, tables: await indexTables(db) };
    },
    async rebuild(documents) {
      const db = await database('REBUILT');
      await empty(db);
      await writeIndex(db, config, documents);
      return indexTables(db);
    },
    reset: async () => empty(await database('KEPT')),
    close: () => mf.dispose(),
  };
}

/**
 * D1 as `site-search index --d1 local` writes it: pushIndex runs the real `wrangler d1 execute --local` (reading what
 * the database holds, then sending the difference); the tables are read back in Miniflare from the same local state.
 * Each wrangler call takes seconds, so this target runs the one edit, not the property.
 */
function wranglerTarget(): Target {
  let n = 0;
  let kept = `d1-kept-${n}`;
  const push = (state: string, documents: IndexDocument[], full: boolean) =>
    pushIndex(config, { kind: 'd1', remote: false, args: ['--persist-to', state], cwd: project.dir }, documents, { full });
  const read = async (state: string) => {
    const mf = new Miniflare({
      modules: true,
      script: 'export default { fetch() { return new Response("ok") } }',
      d1Databases: { SEARCH_DB: D1_DATABASE_ID },
      d1Persist: join(project.dir, state, 'v3/d1'),
    });
    try {
      return await indexTables((await mf.getD1Database('SEARCH_DB')) as unknown as SearchDatabase);
    } finally {
      await mf.dispose();
    }
  };
  return {
    name: 'D1 (wrangler d1 execute --local)',
    async incremental(documents) {
      const { counts } = await push(kept, documents, false);
      return { counts, tables: await read(kept) };
    },
    async rebuild(documents) {
      const state = `d1-rebuilt-${++n}`;
      await push(state, documents, true);
      return read(state);
    },
    async reset() {
      kept = `d1-kept-${++n}`;
    },
    async close() {},
  };
}

const D1_DATABASE_ID = '00000000-0000-4000-8000-000000000034';
project.write(
  'wrangler.toml',
  `name = "incremental-full"\ncompatibility_date = "2026-07-01"\n\n[[d1_databases]]\nbinding = "SEARCH_DB"\ndatabase_name = "incremental-full"\ndatabase_id = "${D1_DATABASE_ID}"\n`,
);

/** Where the property runs: the targets a push writes in milliseconds. */
const TARGETS = { 'node:sqlite': () => sqliteTarget('node:sqlite'), 'better-sqlite3': () => sqliteTarget('better-sqlite3'), d1: d1Target };
/**
 * Where the one edit runs: those, D1 through the real wrangler, and writeIndex through a D1 binding (a statement per
 * round trip: the property there took a minute for six runs).
 */
const EDIT_TARGETS = { ...TARGETS, 'd1 binding': d1BindingTarget, 'D1 through wrangler --local': wranglerTarget };

/** The pages of the content folder as a push reads them. */
async function documents(): Promise<IndexDocument[]> {
  return (await buildIndex(config, { cwd: project.dir })).documents;
}

function clearContent(): void {
  rmSync(join(project.dir, 'content'), { recursive: true, force: true });
}

/** Words the generated pages are written with: some correctable (4+ letters), some not. */
const WORDS = 'the penguin colony dives for krill under antarctic ice while walruses rest on floes and narwhals sing at dusk'.split(' ');

/** `count` words of {@link WORDS} from `from` on, in lines of twelve and paragraphs of sixty. */
function prose(count: number, from: number): string {
  const words = Array.from({ length: count }, (_, i) => WORDS[(from + i) % WORDS.length]!);
  const lines = [];
  for (let i = 0; i < words.length; i += 12) lines.push(words.slice(i, i + 12).join(' ') + ((i / 12) % 5 === 4 ? '\n' : ''));
  return lines.join('\n');
}

/**
 * A long page whose body is cut (at 8,000 characters) inside its last section, which runs on for 3,000 more: the text
 * kept past the cut holds that section's end, its section row its start and then each word of the rest once.
 */
const LONG_PAGE = `---\ntitle: Long page\n---\n\n## Overview\n\n${prose(1_150, 0)}\n\n## Last section\n\n${prose(520, 3)}\n`;

describe.each(Object.entries(EDIT_TARGETS))('incremental push equals a full rebuild after a deep edit: %s', (_key, open) => {
  let target: Target;
  beforeAll(() => {
    target = open();
  });
  afterAll(() => target.close());

  it('after a word is added at the end of a long page’s last section', async () => {
    clearContent();
    await target.reset();
    project.write('content/long.md', LONG_PAGE);
    project.write('content/short.md', '---\ntitle: Short\n---\nA short page.\n');
    await target.incremental(await documents());

    project.write('content/long.md', `${LONG_PAGE.trimEnd()} quokkaflux\n`);
    const edited = await documents();
    const long = edited.find((d) => d.url === '/docs/long/')!;
    // The word is stored past the cut: in the text kept past it, and (every word of a long section, issue 35) in its
    // section's row, not in the body. The hash once left that text out, so the page read as unchanged and kept its old
    // row until a --full push.
    expect(long.content).not.toContain('quokkaflux');
    expect(long.sections.at(-1)!.content).toContain('quokkaflux');
    expect(long.more).toContain('quokkaflux');

    const { counts, tables } = await target.incremental(edited);
    expect(counts).toMatchObject({ added: 0, changed: 1, removed: 0, unchanged: 1 });
    expect(tables).toEqual(await target.rebuild(edited));
    expect(tables.vocabulary).toContainEqual({ site: 'docs', type: 'doc', term: 'quokkaflux' });
  }, 180_000);
});

describe.each(Object.entries(TARGETS))('incremental push equals a full rebuild: %s', (_key, open) => {
  let target: Target;
  beforeAll(() => {
    target = open();
  });
  afterAll(() => target.close());

  it('after any sequence of edits, adds, deletes and renames (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(pageArbitrary, { minLength: 1, maxLength: 4 }), fc.array(changeArbitrary, { minLength: 1, maxLength: 5 }), async (pages, changes) => {
        clearContent();
        await target.reset();
        for (const page of pages) project.write(`content/${page.name}.md`, page.text);
        await target.incremental(await documents());
        for (const change of changes) {
          applyChange(change);
          const current = await documents();
          const { tables } = await target.incremental(current);
          expect(tables, describeChange(change)).toEqual(await target.rebuild(current));
        }
      }),
      // Each run pushes up to 6 times to both indexes; D1 crosses to workerd for every statement.
      { numRuns: _key === 'd1' ? 8 : 15 },
    );
  }, 300_000);
});

const nameArbitrary = fc.tuple(fc.constantFrom('', 'guides/', 'guides/deep/'), fc.stringMatching(/^[a-z]{3,8}$/)).map(([folder, name]) => folder + name);
const wordArbitrary = fc.oneof(fc.constantFrom(...WORDS), fc.stringMatching(/^[a-z]{2,10}$/));

/**
 * A page: a title and up to six sections of generated prose. Half the sections are long, so most pages run past the
 * 8,000 characters kept as the body and many past the text kept beyond it, where an edit once went unseen.
 */
const pageArbitrary = fc
  .record({
    name: nameArbitrary,
    title: wordArbitrary,
    intro: fc.integer({ min: 0, max: 60 }),
    sections: fc.array(fc.record({ heading: wordArbitrary, words: fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 300, max: 1_600 })), from: fc.nat() }), {
      maxLength: 6,
    }),
  })
  .map(({ name, title, intro, sections }) => ({
    name,
    text: [`---\ntitle: ${title}\n---\n`, prose(intro, title.length), ...sections.map((s) => `## ${s.heading}\n\n${prose(s.words, s.from)}`)].join('\n\n') + '\n',
  }));

type Change =
  | { kind: 'edit'; page: number; at: number; word: string }
  | { kind: 'retitle'; page: number; word: string }
  | { kind: 'add'; page: { name: string; text: string } }
  | { kind: 'delete'; page: number }
  | { kind: 'rename'; page: number; name: string };

const changeArbitrary: fc.Arbitrary<Change> = fc.oneof(
  // A word inserted anywhere in the file's body: `at` is a per-mille of its length, 1000 appends it.
  fc.record({ kind: fc.constant('edit' as const), page: fc.nat(), at: fc.oneof(fc.integer({ min: 0, max: 1000 }), fc.constant(1000)), word: wordArbitrary }),
  fc.record({ kind: fc.constant('retitle' as const), page: fc.nat(), word: wordArbitrary }),
  fc.record({ kind: fc.constant('add' as const), page: pageArbitrary }),
  fc.record({ kind: fc.constant('delete' as const), page: fc.nat() }),
  fc.record({ kind: fc.constant('rename' as const), page: fc.nat(), name: nameArbitrary }),
);

/** The content folder's pages, in a fixed order, as paths under it. */
function contentFiles(): string[] {
  return (readdirSync(join(project.dir, 'content'), { recursive: true, encoding: 'utf8' }) as string[]).filter((f) => f.endsWith('.md')).sort();
}

function applyChange(change: Change): void {
  if (change.kind === 'add') return project.write(`content/${change.page.name}.md`, change.page.text);
  const files = contentFiles();
  if (files.length === 0) return;
  const file = files[change.page % files.length]!;
  const path = join(project.dir, 'content', file);
  if (change.kind === 'delete') return rmSync(path);
  if (change.kind === 'rename') {
    if (`${change.name}.md` === file) return;
    project.write(`content/${change.name}.md`, '');
    return renameSync(path, join(project.dir, 'content', `${change.name}.md`));
  }
  const text = readFileSync(path, 'utf8');
  if (change.kind === 'retitle') return project.write(`content/${file}`, text.replace(/^title: .*$/m, `title: ${change.word}`));
  const bodyStart = text.indexOf('\n---\n') + 5;
  const at = bodyStart + Math.round(((text.length - bodyStart) * change.at) / 1000);
  project.write(`content/${file}`, `${text.slice(0, at)} ${change.word} ${text.slice(at)}`);
}

function describeChange(change: Change): string {
  return JSON.stringify(change.kind === 'add' ? { kind: 'add', name: change.page.name } : change);
}
