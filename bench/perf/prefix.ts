/**
 * What FTS5's prefix indexes cost and gain: the latency index's rows copied into a table without one, with the
 * `prefix = '2 3'` of schema versions 4–7, and with today's lengths, each timed building and searched with the floor's
 * bare ranking over the query mix.
 */
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PREFIX_LENGTHS, TABLE } from '../../src/db/schema.js';
import { cpuTimeSync } from './cpu.js';
import { floorMatch } from './latency.js';
import { percentiles, QUERY_MIX, type Stats, work } from './measure.js';

/** One table definition's figures. */
export interface PrefixRow {
  /** The `prefix` option, `''` for none. */
  prefix: string;
  /** Inserting every row and FTS5's `optimize`, as a full push does. */
  buildMs: number;
  /** FTS5's index (its `_data` blocks), without the document text FTS5 keeps beside it. */
  indexBytes: number;
  /** The whole file, document text included. */
  fileBytes: number;
  /** The bare ranking's percentiles over the query mix (best of 3 per query). */
  floor: Stats;
  /** The mix's slowest bare ranking on this table. */
  slowest: { query: string; ms: number };
}

/** The variants measured: none, the lengths before schema version 8, and the lengths the index has now. */
export const PREFIX_VARIANTS = ['', '2 3', PREFIX_LENGTHS.join(' ')];

export function prefixIndexes(source: string, n: number): PrefixRow[] {
  const sqlite = process.getBuiltinModule('node:sqlite') as typeof import('node:sqlite');
  return PREFIX_VARIANTS.map((prefix) => {
    const path = join(work, `prefix-${n}-${prefix.replace(/ /g, '') || 'none'}.db`);
    rmSync(path, { force: true });
    const db = new sqlite.DatabaseSync(path);
    try {
      db.exec(`ATTACH '${source.replace(/'/g, "''")}' AS source`);
      // The columns and tokenizer of src/db/schema.ts; only `prefix` differs.
      db.exec(`CREATE VIRTUAL TABLE t USING fts5(title, description, content, tags, more,
        url UNINDEXED, site UNINDEXED, type UNINDEXED, date UNINDEXED, emoji UNINDEXED,
        tokenize = 'porter unicode61 remove_diacritics 2'${prefix ? `, prefix = '${prefix}'` : ''})`);
      const start = performance.now();
      db.exec(`INSERT INTO t (rowid, title, description, content, tags, more, url, site, type, date, emoji)
        SELECT rowid, title, description, content, tags, more, url, site, type, date, emoji FROM source.${TABLE}`);
      db.exec(`INSERT INTO t (t) VALUES ('optimize')`);
      const buildMs = performance.now() - start;
      db.exec('DETACH source');
      const indexBytes = Number((db.prepare('SELECT sum(length(block)) AS b FROM t_data').get() as { b: number }).b);
      const rank = db.prepare('SELECT rowid, bm25(t, 10, 5, 1, 3) AS bm FROM t WHERE t MATCH ? ORDER BY bm LIMIT 10');
      const times: number[] = [];
      let slowest = { query: '', ms: -1 };
      for (const [q] of QUERY_MIX) {
        const match = floorMatch(q);
        if (!match) continue;
        let ms = Infinity;
        for (let i = 0; i < 3; i++) ms = Math.min(ms, cpuTimeSync(() => rank.all(match)));
        times.push(ms);
        if (ms > slowest.ms) slowest = { query: q, ms };
      }
      db.close();
      return { prefix, buildMs, indexBytes, fileBytes: statSync(path).size, floor: percentiles(times), slowest };
    } finally {
      if (db.isOpen) db.close();
      rmSync(path, { force: true });
    }
  });
}
