import { createWriteStream, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { once } from 'node:events';
import { SiteSearchError } from '../errors.js';
import { openSqlite } from '../db/sqlite.js';
import { llmsFullTxt, llmsTxt, type LlmsSite } from '../llms/index.js';
import type { ResolvedConfig } from '../options/options.js';
import type { Flags } from './args.js';
import type { LoadedConfig } from './load-config.js';

/** `site-search llms --out DIR`: llms.txt and llms-full.txt from the local index. */
export async function llms(loaded: LoadedConfig, flags: Flags): Promise<number> {
  const out = resolve(typeof flags.out === 'string' ? flags.out : '.');
  const origin = typeof flags.origin === 'string' ? flags.origin : loaded.config.origin;
  if (origin && !/^https?:\/\/[^/]+/.test(origin)) throw new SiteSearchError(`--origin ${origin}: must be an absolute http(s) URL such as https://docs.example.com`);
  const path = resolve(loaded.cwd, typeof flags.sqlite === 'string' ? flags.sqlite : loaded.config.sqlitePath);
  const written = await writeLlmsFiles(loaded.config, path, out, origin ? { origin: new URL(origin).origin } : {});
  console.log(`[site-search] wrote ${written.map((f) => join(out, f)).join(' and ')}`);
  return 0;
}

/** Writes llms.txt and llms-full.txt into `dir` from the SQLite index at `indexPath`; returns the file names. */
export async function writeLlmsFiles(config: ResolvedConfig, indexPath: string, dir: string, site: LlmsSite): Promise<string[]> {
  if (!existsSync(indexPath)) {
    throw new SiteSearchError(`llms: no local index at ${indexPath} to write llms.txt from. Run "site-search index" before the build.`);
  }
  const db = openSqlite(indexPath);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'llms.txt'), await llmsTxt(config, db, site));
    const full = createWriteStream(join(dir, 'llms-full.txt'));
    for await (const part of llmsFullTxt(config, db, site)) if (!full.write(part)) await once(full, 'drain');
    full.end();
    await once(full, 'finish');
    return ['llms.txt', 'llms-full.txt'];
  } finally {
    db.close();
  }
}
