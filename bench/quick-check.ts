/**
 * What `PRAGMA quick_check` costs on a real index (issue 44, item 7): the check `site-search index --full` runs on an
 * existing file before it writes, and the reason a server does not run it when it opens its index. CPU time of this
 * process (`process.cpuUsage()`), median of 3 per driver, on the cached latency index of `n` documents.
 *
 *   npx tsx bench/quick-check.ts [n=10000]
 */
import { statSync } from 'node:fs';
import { openSqlite, type SqliteDriver } from '../src/db/sqlite.js';
import { pushIndex } from '../src/indexer/push.js';
import { baseConfig, documents } from './corpus.js';
import { cachedIndex } from './perf/index-cache.js';

const n = Number(process.argv[2] ?? 10_000);
const { path } = await cachedIndex(n, async (to) => {
  await pushIndex(baseConfig, { kind: 'sqlite', path: to }, await documents(n), { full: true });
});
console.log(`${n.toLocaleString('en-US')} documents, ${(statSync(path).size / 1e6).toFixed(0)} MB index`);
for (const driver of ['node:sqlite', 'better-sqlite3'] as SqliteDriver[]) {
  const runs: number[] = [];
  for (let i = 0; i < 3; i++) {
    const db = openSqlite(path, { driver });
    const before = process.cpuUsage();
    const { results } = await db.prepare('PRAGMA quick_check(1)').all<{ quick_check: string }>();
    const used = process.cpuUsage(before);
    db.close();
    if (results[0]?.quick_check !== 'ok') throw new Error(`quick_check: ${results[0]?.quick_check}`);
    runs.push((used.user + used.system) / 1000);
  }
  console.log(`${driver}: quick_check ${runs.sort((a, b) => a - b)[1]!.toFixed(0)} ms CPU (median of 3)`);
}
