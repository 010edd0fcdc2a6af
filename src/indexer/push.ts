import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { openSqlite, type SqliteDriver } from '../db/sqlite.js';
import type { SearchDatabase } from '../db/types.js';
import { resolveConfig } from '../config.js';
import type { ResolvedConfig, SearchOptions } from '../options.js';
import { DOCS_TABLE, ensureSchema, INSERT_SECTION, SECTIONS_TABLE, syncDocsStatement, TABLE, VOCAB_TABLE } from '../schema.js';
import { foldWord } from '../fold.js';
import { Vocabulary } from './vocabulary.js';
import type { IndexDocument } from './document.js';
import { deleteStatement, pushStatements, siteWhere, toSqlFile } from './sql.js';
import { executeD1File } from './wrangler.js';
import { SiteSearchError } from '../errors.js';

/** Where an index push goes. */
export type PushTarget =
  /**
   * A local SQLite file (default `config.sqlitePath`): what `site-search dev` and Node servers read. When another
   * push is writing the file, this one waits up to `lockTimeoutMs` (default 60,000) for it to finish.
   */
  | { kind: 'sqlite'; path?: string; driver?: SqliteDriver; lockTimeoutMs?: number }
  /**
   * Cloudflare D1 through `wrangler d1 execute --local|--remote`, run in `cwd` (where the wrangler config is; default:
   * the push's `cwd`); `args` are passed on (e.g. `--env`, `--persist-to`).
   */
  | { kind: 'd1'; remote: boolean; args?: string[]; cwd?: string }
  /** Only write the SQL file, for your own deploy pipeline. */
  | { kind: 'sql'; out: string };

export interface PushResult {
  documents: number;
  /** Where the rows went: a file path or `d1:<database> (local|remote)`. */
  destination: string;
}

/**
 * Replaces this site's rows (all rows when `site` is empty) with `documents`. Relative paths resolve against `cwd`.
 * The SQLite push is one transaction: if anything fails, the previous index stays as it was.
 */
export async function pushIndex(
  options: SearchOptions | ResolvedConfig,
  target: PushTarget,
  input: Iterable<IndexDocument> | AsyncIterable<IndexDocument>,
  { cwd = process.cwd() }: { cwd?: string } = {},
): Promise<PushResult> {
  const config = resolveConfig(options);
  input = firstOfEachUrl(input);
  if (target.kind === 'sqlite') {
    const path = resolve(cwd, target.path ?? config.sqlitePath);
    const count = await pushToSqlite(config, path, input, target).catch((e: unknown) => {
      throw writeFailed(path, e);
    });
    return { documents: count, destination: path };
  }
  // SQL for D1 is written whole (statements must be sized and ordered): these targets hold the documents.
  const documents: IndexDocument[] = [];
  for await (const d of input) documents.push(d);
  const sql = toSqlFile(pushStatements(config, documents));
  if (target.kind === 'sql') {
    const out = resolve(cwd, target.out);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, sql);
    return { documents: documents.length, destination: out };
  }
  const dir = mkdtempSync(join(tmpdir(), 'site-search-'));
  try {
    const file = join(dir, 'push.sql');
    writeFileSync(file, sql);
    await executeD1File(config.database, file, { remote: target.remote, cwd: target.cwd ?? cwd, args: target.args });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { documents: documents.length, destination: `d1:${config.database} (${target.remote ? 'remote' : 'local'})` };
}

/**
 * Documents given straight to {@link pushIndex} may share a URL (the file reader already drops such pages with a
 * warning): both targets keep the first, as the reader does, instead of failing on the second one's sections.
 */
async function* firstOfEachUrl(input: Iterable<IndexDocument> | AsyncIterable<IndexDocument>): AsyncGenerator<IndexDocument> {
  const urls = new Set<string>();
  for await (const d of input) {
    if (urls.has(d.url)) {
      console.warn(`[site-search] warning: two documents have the URL ${d.url}; the first is kept`);
      continue;
    }
    urls.add(d.url);
    yield d;
  }
}

/**
 * Replaces this site's rows (documents and typo vocabulary) through any {@link SearchDatabase}: the schema, the
 * site-scoped deletes, the inserts. Atomic only inside a transaction, which the SQLite push provides.
 */
export async function writeIndex(
  db: SearchDatabase,
  options: SearchOptions | ResolvedConfig,
  documents: Iterable<IndexDocument> | AsyncIterable<IndexDocument>,
): Promise<number> {
  const config = resolveConfig(options);
  await ensureSchema(db);
  for (const table of [TABLE, DOCS_TABLE, SECTIONS_TABLE, VOCAB_TABLE]) await db.prepare(deleteStatement(config.site, table)).run();
  const insert = db.prepare(
    `INSERT INTO ${TABLE} (title, description, content, tags, url, site, type, date, emoji) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // The side row takes the FTS5 row's id; documents stream through one at a time, so nothing holds the corpus.
  const side = db.prepare(`INSERT INTO ${DOCS_TABLE} (id, site, type, day, url) VALUES (last_insert_rowid(), ?, ?, ?, ?)`);
  const section = db.prepare(INSERT_SECTION);
  const vocabulary = new Vocabulary();
  let count = 0;
  for await (const d of documents) {
    await insert.bind(d.title, d.description, d.content, d.tags, d.url, d.site, d.type, d.date, d.emoji).run();
    await side.bind(d.site, d.type, dayNumberOf(d.date), d.url).run();
    for (const [i, s] of d.sections.entries()) await section.bind(d.site, d.url, i, d.site, s.heading, s.anchor, foldWord(s.content)).run();
    vocabulary.add(d);
    count++;
  }
  const word = db.prepare(`INSERT INTO ${VOCAB_TABLE} (term, site, type) VALUES (?, ?, ?)`);
  for (const { term, type } of vocabulary.words()) await word.bind(term, config.site, type).run();
  return count;
}

/** Days since 1970-01-01 of a `YYYY-MM-DD` date, or null: the same as the SQL `DAY_OF_DATE`. */
function dayNumberOf(date: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(date);
  return match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) / 86_400_000 : null;
}

/** How long a push waits for another push to the same file: a large site's push takes about a minute. */
const PUSH_LOCK_TIMEOUT_MS = 60_000;

async function pushToSqlite(
  config: ResolvedConfig,
  path: string,
  documents: Iterable<IndexDocument> | AsyncIterable<IndexDocument>,
  { driver, lockTimeoutMs = PUSH_LOCK_TIMEOUT_MS }: { driver?: SqliteDriver; lockTimeoutMs?: number },
): Promise<number> {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  // A new file is built with a rollback journal, which SQLite skips for pages the file did not have yet: each page is
  // written once, where WAL writes it to the log and again at the checkpoint (10,000 pages: 2.9 → 2.4 s). It is still
  // one transaction, and the file goes back to WAL, so readers never wait on later pushes.
  const fresh = path !== ':memory:' && !existsSync(path);
  const db = openSqlite(path, { driver, busyTimeoutMs: lockTimeoutMs, create: true });
  try {
    if (fresh) db.exec('PRAGMA journal_mode = DELETE');
    const count = await db.transaction(() => writeIndex(db, config, documents));
    // Merging the FTS5 b-trees after a bulk load makes queries faster. The rows are committed by now, so a failure
    // here (a full disk, say) must not report the push as failed.
    try {
      db.exec(`INSERT INTO ${TABLE}(${TABLE}) VALUES ('optimize')`);
      db.exec(`INSERT INTO ${VOCAB_TABLE}(${VOCAB_TABLE}) VALUES ('optimize')`);
    } catch (e) {
      console.warn(`[site-search] FTS5 optimize skipped: ${(e as Error).message}`);
    }
    return count;
  } finally {
    if (fresh) db.exec('PRAGMA journal_mode = WAL');
    db.close();
  }
}

/**
 * A SQLite error during a push, as one line that names the file and the fix. The transaction was rolled back, so the
 * previous index is still there; other errors (a document that failed to read, say) pass through as they are.
 */
function writeFailed(path: string, e: unknown): unknown {
  const code = String((e as { code?: unknown })?.code ?? '');
  if (code !== 'ERR_SQLITE_ERROR' && !code.startsWith('SQLITE_')) return e;
  const message = (e as Error).message;
  if (/database is locked|SQLITE_BUSY/i.test(message) || code === 'SQLITE_BUSY') {
    return new SiteSearchError(
      `Another push is writing to ${path} and did not finish in time. Wait for it to end, then run this push again. The index is unchanged.`,
      { cause: e },
    );
  }
  const fix = /readonly|read-only/i.test(message)
    ? 'Make the file and its folder writable, or write the index elsewhere with --sqlite FILE.'
    : /full|I\/O|disk/i.test(message)
      ? 'Free disk space (or check the disk), then run the push again.'
      : /unable to open/i.test(message)
        ? 'Check that the folder is writable, or write the index elsewhere with --sqlite FILE.'
        : /malformed|not a database|corrupt/i.test(message)
          ? 'The file is damaged: delete it and run the push again (it holds only the index, which the push rebuilds).'
          : 'Run the push again; if it fails the same way, run it with --debug and report the error.';
  return new SiteSearchError(`Could not write the index to ${path} (${message}). ${fix} The previous index is unchanged.`, { cause: e });
}
