import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { openSqlite, type SqliteDatabase, type SqliteDriver } from '../db/sqlite.js';
import type { SearchDatabase, SearchStatement } from '../db/types.js';
import { resolveConfig } from '../options/config.js';
import type { ResolvedConfig, SearchOptions } from '../options/options.js';
import { boundParams, deleteWords, insertWords, OPTIMIZE_STATEMENTS, pageInsert, pageRemoval, SITE_TABLES, WORD_IDS_PER_STATEMENT, WORDS_PER_STATEMENT } from '../db/write-plan.js';
import { ensureSchema, packVocabularyStatements, rebuildStatements, SCHEMA_VERSION } from '../db/schema.js';
import { Vocabulary } from './vocabulary.js';
import type { IndexDocument } from './document.js';
import { fullCounts, heldOf, pageHash, rowsHeld, targetState, wholeRewriteReason, worthOptimizing, type PushCounts, type TargetState } from './changes.js';
import { changeStatements, deleteStatement, pushStatements, rowsInserted, siteWhere, targetStateQueries, toSqlFile, URLS_PER_LOOKUP } from './sql.js';
import { StoredPages, staleWords } from './stored-pages.js';
import { executeD1File, queryD1 } from './wrangler.js';
import { isDamagedIndexError, SiteSearchError } from '../errors.js';
import { damageOf, removeIndexFile } from './damaged-file.js';
import { testPause } from './test-pause.js';

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
  /** What the push wrote (or, with `dryRun`, would write). */
  counts: PushCounts;
  /** True when nothing was written (`dryRun`). */
  dryRun: boolean;
}

/** Options of {@link pushIndex}. */
export interface PushOptions extends WriteOptions {
  /** Directory relative paths resolve against. Default: the working directory. */
  cwd?: string;
  /** Work out what the push would write, and write nothing. */
  dryRun?: boolean;
}

/**
 * Brings this site's rows (all rows when `site` is empty) in line with `documents`, writing only what changed (see
 * {@link writeIndex}; `full` rewrites them all). Relative paths resolve against `cwd`. The SQLite push is one
 * transaction: if anything fails, the previous index stays as it was. A D1 push reads the target's page hashes and
 * words (one `wrangler d1 execute --json`, while the documents are read) and sends only the difference, in a second
 * call that is skipped when nothing differs; every page it writes is removed by URL first, so two pushes at once
 * leave one row per URL. A `sql` target (a file for your own pipeline) cannot read its target, so it holds the whole
 * site.
 */
export async function pushIndex(
  options: SearchOptions | ResolvedConfig,
  target: PushTarget,
  input: Iterable<IndexDocument> | AsyncIterable<IndexDocument>,
  { cwd = process.cwd(), full = false, dryRun = false }: PushOptions = {},
): Promise<PushResult> {
  const config = resolveConfig(options);
  input = firstOfEachUrl(input);
  if (target.kind === 'sqlite') {
    const path = resolve(cwd, target.path ?? config.sqlitePath);
    const counts = await pushToSqlite(config, path, input, target, { full, dryRun }).catch((e: unknown) => {
      throw writeFailed(path, e);
    });
    return { documents: counts.pages, destination: path, counts, dryRun };
  }
  const wrangler = target.kind === 'd1' ? { remote: target.remote, cwd: target.cwd ?? cwd, args: target.args } : undefined;
  // wrangler reads the database in its own process while this one reads the files: seconds each, side by side. With
  // --full too: the rows a rewrite deletes count as written, as the SQLite push counts them.
  const reading = wrangler ? readD1State(config, wrangler) : undefined;
  reading?.catch(() => {}); // a failed read is reported where it is awaited, after the files
  // SQL for D1 is written whole (statements must be sized and ordered): these targets hold the documents.
  const documents: IndexDocument[] = [];
  for await (const d of input) documents.push(d);
  const found = await reading;
  const reason = found ? wholeRewriteReason(found.state && heldOf(found.state), found.version) : undefined;
  // An index of another schema version is rebuilt: its tables are dropped first (for every site sharing them).
  const rebuild = found?.version !== undefined && found.version !== String(SCHEMA_VERSION);
  const incremental = !full && found?.state !== undefined && found.state.pages.size > 0 && !reason;
  const plan = incremental
    ? changeStatements(config, documents, found!.state!)
    : {
        statements: [...(rebuild ? rebuildStatements() : []), ...pushStatements(config, documents)],
        counts: wholePushCounts(documents, full || target.kind === 'sql' || reason !== undefined, reason, rebuild ? undefined : found?.state),
      };
  const destination = target.kind === 'sql' ? resolve(cwd, target.out) : `d1:${config.database} (${target.remote ? 'remote' : 'local'})`;
  const result = { documents: documents.length, destination, counts: plan.counts, dryRun };
  // Nothing to write: no second wrangler call, which would only create tables that are there.
  if (dryRun || (target.kind === 'd1' && incremental && plan.counts.rowsWritten === 0)) return result;
  const sql = toSqlFile(plan.statements);
  if (target.kind === 'sql') {
    mkdirSync(dirname(destination), { recursive: true });
    writeFileSync(destination, sql);
    return result;
  }
  const dir = mkdtempSync(join(tmpdir(), 'site-search-'));
  try {
    const file = join(dir, 'push.sql');
    writeFileSync(file, sql);
    await executeD1File(config.database, file, wrangler!);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return result;
}

/**
 * A push that sends the whole site: a rewrite (asked for, or forced by the target), or the first push, all added. Its
 * rows written are those it inserts and those of `held` (what the target holds for the site, which it deletes).
 */
function wholePushCounts(documents: IndexDocument[], rewrite: boolean, reason?: string, held?: TargetState): PushCounts {
  const rows = rowsInserted(documents) + (held ? rowsHeld(held) : 0);
  return rewrite ? fullCounts(documents.length, rows, reason) : { pages: documents.length, added: documents.length, changed: 0, removed: 0, unchanged: 0, rowsWritten: rows, full: false };
}

const VERSION_QUERY = "SELECT value FROM search_meta WHERE key = 'schema_version'";

/**
 * What the D1 database holds for this site: its schema version and its pages' hashes and words. Undefined when it has
 * no index yet (a first push), or one written before hashes were stored (its tables are missing). One wrangler call
 * reads all three: each call starts wrangler and a local runtime, seconds of an edit loop (docs/benchmarks.md). Only
 * when a table is missing does a second call read the version alone.
 */
async function readD1State(
  config: ResolvedConfig,
  wrangler: { remote: boolean; cwd: string; args?: string[] },
): Promise<{ version?: string; state?: TargetState } | undefined> {
  const versionOf = (rows: Record<string, unknown>[] | undefined) => (rows?.[0]?.value === undefined ? undefined : String(rows[0].value));
  try {
    const [meta, pages = [], words = []] = await queryD1(config.database, [VERSION_QUERY, ...targetStateQueries(config.site)], wrangler);
    const version = versionOf(meta);
    return version !== undefined && version !== String(SCHEMA_VERSION) ? { version } : { version, state: targetState(pages, words) };
  } catch (e) {
    if (!/no such table/i.test((e as Error).message)) throw e;
  }
  try {
    const [meta] = await queryD1(config.database, [VERSION_QUERY], wrangler);
    return { version: versionOf(meta) };
  } catch (e) {
    if (/no such table/i.test((e as Error).message)) return undefined;
    throw e;
  }
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

/** Options of {@link writeIndex} and {@link pushIndex}. */
export interface WriteOptions {
  /** Rewrite the site's rows whole instead of writing only what changed. */
  full?: boolean;
}

/**
 * Brings this site's rows (all rows when `site` is empty) in line with `documents` through any
 * {@link SearchDatabase}: pages whose content hash is unchanged keep their rows (and row ids) untouched, changed pages
 * are replaced, new ones inserted, missing ones deleted, with their sections, and the typo vocabulary gains and loses
 * exactly the words that came and went. The site is rewritten whole when asked (`full`), when the index holds no hashes
 * to compare with, or when its schema version differs. Atomic only inside a transaction, which the SQLite push provides.
 * It compares as the documents come and never holds the site's stored pages (stored-pages.ts), so its memory does not
 * grow with the index; give each URL once (the file reader and {@link pushIndex} keep the first).
 */
export async function writeIndex(
  db: SearchDatabase,
  options: SearchOptions | ResolvedConfig,
  documents: Iterable<IndexDocument> | AsyncIterable<IndexDocument>,
  { full = false }: WriteOptions = {},
): Promise<PushCounts> {
  const config = resolveConfig(options);
  const storedVersion = await schemaVersionOf(db);
  const rebuilt = await ensureSchema(db);
  const stored = full || rebuilt ? undefined : await StoredPages.open(db, config.site);
  const reason = wholeRewriteReason(stored?.held, rebuilt ? storedVersion : undefined);
  const whole = full || rebuilt || reason !== undefined || stored!.held.pages === 0;

  let rows = 0;
  const write = async (statement: SearchStatement) => void (rows += changesOf(await statement.run()));
  if (whole) {
    for (const table of SITE_TABLES) await write(db.prepare(deleteStatement(config.site, table)));
    testPause('cleared');
  }
  const vocabulary = new Vocabulary();
  const counts = { pages: 0, added: 0, changed: 0, removed: 0, unchanged: 0 };
  /** Documents waiting for their stored rows to be looked up, a few dozen at a time. */
  let batch: IndexDocument[] = [];
  let pagesWritten = 0;
  for await (const d of documents) {
    counts.pages++;
    vocabulary.add(d);
    if (whole) {
      counts.added++;
      await writePage(d, 'added', pageHash(d));
    } else if (batch.push(d) === URLS_PER_LOOKUP) await compareBatch();
  }
  if (!whole) await compareBatch();
  for (const page of whole ? [] : await stored!.unmet(counts.pages)) {
    await removePage(page.site, page.url);
    counts.removed++;
  }
  // With the site's words deleted (a rewrite), every word is new; else the stored ones the pages still hold stay.
  const staleIds = whole ? [] : await staleWords(db, config.site, vocabulary);
  const inserted = vocabulary.words();
  for (const added of chunks(inserted, WORDS_PER_STATEMENT)) {
    await write(db.prepare(insertWords(added.length)).bind(...added.flatMap((w) => [w.term, config.site, w.type])));
  }
  for (const ids of chunks(staleIds, WORD_IDS_PER_STATEMENT)) await write(db.prepare(deleteWords(ids.length)).bind(...ids));
  // Derived rows, a handful, left out of the rows written as the D1 file's count leaves them (it cannot know them).
  if (whole || inserted.length || staleIds.length) for (const sql of packVocabularyStatements(siteWhere(config.site))) await db.prepare(sql).run();
  // A first push into an empty index is a list of added pages; a rewrite asked for, or forced by the index, says so.
  return full || reason ? fullCounts(counts.pages, rows, reason) : { ...counts, rowsWritten: rows, full: false };

  async function compareBatch(): Promise<void> {
    // Documents carry the push's site (given straight to writeIndex, they may carry others, which a push owns when
    // its own site is empty): each site's URLs are looked up under it.
    const hashes = new Map<string, Map<string, string | null>>();
    for (const site of new Set(batch.map((d) => d.site))) {
      hashes.set(site, await stored!.lookUp(site, batch.filter((d) => d.site === site).map((d) => d.url)));
    }
    for (const d of batch) {
      const h = pageHash(d);
      const old = hashes.get(d.site)!.get(d.url);
      const found = old === undefined ? 'added' : old === h ? 'unchanged' : 'changed';
      counts[found]++;
      if (found !== 'unchanged') await writePage(d, found, h);
    }
    batch = [];
  }

  async function writePage(d: IndexDocument, found: 'added' | 'changed', h: string): Promise<void> {
    if (found === 'changed') await removePage(d.site, d.url);
    const [page, ...rest] = pageInsert(d, dayNumberOf(d.date), h);
    // The page's row id, which the search_index insert gives: the pages it wrote are not removed at the end.
    const inserted = await db.prepare(page!.sql).bind(...boundParams(page!)).run();
    rows += changesOf(inserted);
    stored?.wrote(insertedRowId(inserted));
    for (const statement of rest) await write(db.prepare(statement.sql).bind(...boundParams(statement)));
    testPause(`page:${++pagesWritten}`);
  }

  async function removePage(site: string, url: string): Promise<void> {
    for (const statement of pageRemoval(site, url)) await write(db.prepare(statement.sql).bind(...boundParams(statement)));
  }
}

function* chunks<T>(items: T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/** The schema version the index records, or undefined when it records none (a new or an astro-d1-search database). */
async function schemaVersionOf(db: SearchDatabase): Promise<string | undefined> {
  try {
    const { results } = await db.prepare("SELECT value FROM search_meta WHERE key = 'schema_version'").all<{ value: string }>();
    return results[0]?.value;
  } catch {
    return undefined;
  }
}

/** Rows a statement changed, from whichever driver ran it (node:sqlite, better-sqlite3, D1). */
function changesOf(result: unknown): number {
  const r = result as { changes?: number | bigint; meta?: { changes?: number } } | undefined;
  return Number(r?.changes ?? r?.meta?.changes ?? 0);
}

/** The row id an insert gave its row, from whichever driver ran it (node:sqlite, better-sqlite3, D1). */
function insertedRowId(result: unknown): number {
  const r = result as { lastInsertRowid?: number | bigint; meta?: { last_row_id?: number } } | undefined;
  return Number(r?.lastInsertRowid ?? r?.meta?.last_row_id);
}

/** Days since 1970-01-01 of a `YYYY-MM-DD` date, or null: the same as the SQL `DAY_OF_DATE`. */
function dayNumberOf(date: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(date);
  return match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) / 86_400_000 : null;
}

/** How long a push waits for another push to the same file: a large site's push takes about a minute. */
const PUSH_LOCK_TIMEOUT_MS = 60_000;

/** Thrown inside a dry run's transaction so that it rolls back, carrying what the push would have written. */
class DryRun {
  constructor(readonly counts: PushCounts) {}
}

async function pushToSqlite(
  config: ResolvedConfig,
  path: string,
  documents: Iterable<IndexDocument> | AsyncIterable<IndexDocument>,
  { driver, lockTimeoutMs = PUSH_LOCK_TIMEOUT_MS }: { driver?: SqliteDriver; lockTimeoutMs?: number },
  { full, dryRun }: { full: boolean; dryRun: boolean },
): Promise<PushCounts> {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  // A new file is built with a rollback journal, which SQLite skips for pages the file did not have yet: each page is
  // written once, where WAL writes it to the log and again at the checkpoint (docs/decisions.md). It is still
  // one transaction. An existing file is written in WAL mode, so a server reading it never waits for the push.
  let fresh = path !== ':memory:' && !existsSync(path);
  // A damaged file cannot be pushed into: a whole rewrite (--full) starts a new one, which is what the server's 500 says.
  const damage = full && !fresh && !dryRun && path !== ':memory:' ? await damageOf(path, driver) : undefined;
  if (damage) {
    console.warn(`[site-search] ${path} was damaged (${damage}); writing a new index in its place.`);
    removeIndexFile(path);
    fresh = true;
  }
  const db = openSqlite(path, { driver, busyTimeoutMs: lockTimeoutMs, create: true });
  try {
    if (fresh) db.exec('PRAGMA journal_mode = DELETE');
    // A dry run does all the work of a push inside the transaction, then rolls it back.
    const counts = await db
      .transaction(async () => {
        const written = await writeIndex(db, config, documents, { full });
        if (dryRun) throw new DryRun(written);
        testPause('commit');
        return written;
      })
      .catch((e: unknown) => {
        if (e instanceof DryRun) return e.counts;
        throw e;
      });
    // Merging the FTS5 b-trees after a bulk load makes queries faster (and rewrites the whole index, which a one-page
    // edit need not cost). The rows are committed by now, so a failure here (a full disk, say) must not report the
    // push as failed.
    if (!dryRun) testPause('committed');
    if (!dryRun && worthOptimizing(counts)) {
      try {
        for (const sql of OPTIMIZE_STATEMENTS) db.exec(sql);
      } catch (e) {
        console.warn(`[site-search] FTS5 optimize skipped: ${(e as Error).message}`);
      }
    }
    return counts;
  } finally {
    leaveRollbackJournal(db);
    db.close();
    if (fresh && dryRun) for (const file of [path, `${path}-wal`, `${path}-shm`]) rmSync(file, { force: true });
  }
}

/**
 * Leaves the file in rollback-journal mode, the one SQLite opens read-only with nothing writable beside it (a WAL-mode
 * file needs a writable `-shm` next to it): the index a push leaves is what gets deployed, often onto a read-only file
 * system. SQLite refuses the switch at once while another connection reads the file in WAL mode (a server that
 * searched during the push, another push), and a failed push may leave it unable to: the file then stays in WAL,
 * which a server on a writable disk reads as before, and the next push switches it. Nothing to report either way.
 */
function leaveRollbackJournal(db: SqliteDatabase): void {
  try {
    db.exec('PRAGMA journal_mode = DELETE');
  } catch {}
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
  // "database disk image is malformed" says disk: damage is told apart first.
  const fix = isDamagedIndexError(e)
    ? // The command, not "the push": `site-search dev` and the framework integrations take no --full of their own.
      'The file is damaged: rebuild it with "npx site-search index --full", which writes a new one (the file holds only the index).'
    : /readonly|read-only/i.test(message)
      ? 'Make the file and its folder writable, or write the index elsewhere with --sqlite FILE.'
      : /full|I\/O|disk/i.test(message)
        ? 'Free disk space (or check the disk), then run the push again.'
        : /unable to open/i.test(message)
          ? 'Check that the folder is writable, or write the index elsewhere with --sqlite FILE.'
          : 'Run the push again; if it fails the same way, run it with --debug and report the error.';
  return new SiteSearchError(`Could not write the index to ${path} (${message}). ${fix} The previous index is unchanged.`, { cause: e });
}
