import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { openSqlite, type SqliteDriver } from '../db/sqlite.js';
import type { SearchDatabase } from '../db/types.js';
import { resolveConfig } from '../config.js';
import type { ResolvedConfig, SearchOptions } from '../options.js';
import { DOCS_TABLE, ensureSchema, INSERT_SECTION, SECTIONS_TABLE, syncDocsStatement, TABLE, VOCAB_TABLE } from '../schema.js';
import { vocabularyOf } from './vocabulary.js';
import type { IndexDocument } from './document.js';
import { deleteStatement, pushStatements, siteWhere, toSqlFile } from './sql.js';
import { executeD1File } from './wrangler.js';

/** Where an index push goes. */
export type PushTarget =
  /** A local SQLite file (default `config.sqlitePath`): what `site-search dev` and Node servers read. */
  | { kind: 'sqlite'; path?: string; driver?: SqliteDriver }
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
  documents: IndexDocument[],
  { cwd = process.cwd() }: { cwd?: string } = {},
): Promise<PushResult> {
  const config = resolveConfig(options);
  if (target.kind === 'sqlite') {
    const path = resolve(cwd, target.path ?? config.sqlitePath);
    await pushToSqlite(config, path, documents, target.driver);
    return { documents: documents.length, destination: path };
  }
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
 * Replaces this site's rows (documents and typo vocabulary) through any {@link SearchDatabase}: the schema, the
 * site-scoped deletes, the inserts. Atomic only inside a transaction, which the SQLite push provides.
 */
export async function writeIndex(db: SearchDatabase, options: SearchOptions | ResolvedConfig, documents: IndexDocument[]): Promise<void> {
  const config = resolveConfig(options);
  await ensureSchema(db);
  await db.prepare(deleteStatement(config.site)).run();
  const insert = db.prepare(
    `INSERT INTO ${TABLE} (title, description, content, tags, url, site, type, date, emoji) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const d of documents) {
    await insert.bind(d.title, d.description, d.content, d.tags, d.url, d.site, d.type, d.date, d.emoji).run();
  }
  await db.prepare(deleteStatement(config.site, DOCS_TABLE)).run();
  await db.prepare(syncDocsStatement(siteWhere(config.site))).run();
  await db.prepare(deleteStatement(config.site, SECTIONS_TABLE)).run();
  const section = db.prepare(INSERT_SECTION);
  for (const d of documents) {
    for (const [i, s] of d.sections.entries()) await section.bind(d.site, d.url, i, d.site, s.heading, s.anchor, s.content).run();
  }
  await db.prepare(deleteStatement(config.site, VOCAB_TABLE)).run();
  const word = db.prepare(`INSERT INTO ${VOCAB_TABLE} (term, site, type) VALUES (?, ?, ?)`);
  for (const { term, type } of vocabularyOf(documents)) await word.bind(term, config.site, type).run();
}

async function pushToSqlite(config: ResolvedConfig, path: string, documents: IndexDocument[], driver?: SqliteDriver): Promise<void> {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = openSqlite(path, { driver });
  try {
    await db.transaction(() => writeIndex(db, config, documents));
    // Merging the FTS5 b-trees after a bulk load makes queries faster. The rows are committed by now, so a failure
    // here (a full disk, say) must not report the push as failed.
    try {
      db.exec(`INSERT INTO ${TABLE}(${TABLE}) VALUES ('optimize')`);
    db.exec(`INSERT INTO ${VOCAB_TABLE}(${VOCAB_TABLE}) VALUES ('optimize')`);
    } catch (e) {
      console.warn(`[site-search] FTS5 optimize skipped: ${(e as Error).message}`);
    }
  } finally {
    db.close();
  }
}
