/** Index builds at one corpus size: the CLI and each peer in a fresh process, with time, peak memory and size. */
import { execFileSync } from 'node:child_process';
import { closeSync, openSync, readdirSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { documents, withoutWordBreaks, writeCorpusFiles } from '../corpus.js';
import { corpusOptions } from '../labeled-queries.js';
import { type Spread, here, spread, work } from './measure.js';

/** Runs bench/child.mjs in a fresh process and returns its JSON line. */
export function child(...args: string[]): Record<string, number | string> {
  const out = execFileSync(process.execPath, [join(here, 'child.mjs'), ...args], { cwd: join(here, '..'), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(out.trim().split('\n').pop()!);
}

/** Builds per engine. Taken in turn (a build of each engine, then the next round), like the latency rounds. */
export const BUILD_ROUNDS = 3;

/** One engine's indexing figures: time and peak RSS over BUILD_ROUNDS builds; rates from the median time. */
export interface IndexingRow {
  /** How many builds the figures come from. */
  builds: number;
  ms: Spread;
  rssMB: Spread;
  docsPerSec: number;
  mbPerSec: number;
  diskMB?: number;
}

/** Files → ready index: the CLI (parsing Markdown included) and the peers' builds (from extracted records). */
export async function indexing(n: number, peers: 'all' | 'pagefind') {
  const dir = join(work, `files-${n}`);
  rmSync(dir, { recursive: true, force: true });
  const bytes = await writeCorpusFiles(dir, n);
  const langs = [...new Set(corpusOptions().sources.map((s) => s.type))];
  const config = join(dir, 'search.config.json');
  writeFileSync(config, JSON.stringify({ database: 'bench', sources: langs.map((l) => ({ dir: l, type: l, url: `/${l}/:slug` })) }));
  // Each build starts from nothing: its output (a file or a folder, measured for its size) is removed first, so a
  // SQLite build is always a new file rather than a push into the previous round's.
  // `rounds` below BUILD_ROUNDS: a build too long to repeat (Pagefind at 100,000 documents takes minutes).
  const builds: { name: string; output?: string; args: string[]; rounds?: number }[] = [];
  const sqlite = join(work, `index-${n}.db`);
  builds.push({ name: 'site-search CLI (files → SQLite)', output: sqlite, args: ['cli-index', config, sqlite] });
  const mini = join(work, `minisearch-${n}.json`);
  const orama = join(work, `orama-${n}.json`);
  const flex = join(work, `flexsearch-${n}.json`);
  const inputs: string[] = [];
  const pagefindBuild = (records: string, rounds?: number) => {
    const pagefind = join(work, `pagefind-${n}`);
    return { name: 'Pagefind (Node API)', output: pagefind, args: ['build', 'Pagefind', records, pagefind], rounds };
  };
  const docs = await documents(n);
  const records = join(work, `records-${n}.ndjson`);
  writeNdjson(records, (function* () {
    for (const d of docs) {
      const { sections: _, ...record } = withoutWordBreaks(d);
      yield record;
    }
  })());
  inputs.push(records);
  if (peers === 'all') {
    const ours = join(work, `records-site-search-${n}.ndjson`);
    writeNdjson(ours, docs);
    inputs.push(ours);
    const fromRecords = join(work, `records-${n}.db`);
    builds.push(
      { name: 'site-search from the same records (no Markdown parsing)', output: fromRecords, args: ['build', 'site-search', ours, fromRecords, JSON.stringify(corpusOptions())] },
      { name: 'MiniSearch addAll()', output: mini, args: ['build', 'MiniSearch', records, mini] },
      { name: 'Orama insertMultiple()', output: orama, args: ['build', 'Orama', records, orama] },
      { name: 'FlexSearch add()', output: flex, args: ['build', 'FlexSearch', records, flex] },
      pagefindBuild(records),
    );
  } else {
    // The in-memory peers cannot hold 100,000 documents here; Pagefind can, once.
    builds.push(pagefindBuild(records, 1));
  }
  const runs = new Map<string, { ms: number; rssMB: number }[]>(builds.map((b) => [b.name, []]));
  for (let round = 0; round < BUILD_ROUNDS; round++) {
    for (const { name, output, args, rounds = BUILD_ROUNDS } of builds) {
      if (round >= rounds) continue;
      for (const path of output ? [output, `${output}-wal`, `${output}-shm`] : []) rmSync(path, { recursive: true, force: true });
      // The previous build's output (or the corpus just written) is flushed first, so no build pays for another's
      // write-back.
      execFileSync('sync');
      const r = child(...args);
      runs.get(name)!.push({ ms: Number(r.buildMs), rssMB: Number(r.rssMB) });
    }
  }
  for (const path of inputs) rmSync(path);
  const rows: Record<string, IndexingRow> = {};
  for (const { name, output } of builds) {
    const ms = spread(runs.get(name)!.map((r) => r.ms));
    const seconds = ms.median / 1000;
    rows[name] = {
      builds: runs.get(name)!.length,
      ms,
      rssMB: spread(runs.get(name)!.map((r) => r.rssMB)),
      docsPerSec: n / seconds,
      mbPerSec: bytes / 1e6 / seconds,
      diskMB: output ? diskBytes(output) / 1e6 : undefined,
    };
  }
  return { bytes, rows, sqlite, serialized: { mini, orama, flex } };
}

/** Writes one JSON object per line, a line at a time (the records of 100,000 documents do not fit in one string). */
export function writeNdjson(path: string, items: Iterable<unknown>): void {
  const fd = openSync(path, 'w');
  try {
    for (const item of items) writeSync(fd, `${JSON.stringify(item)}\n`);
  } finally {
    closeSync(fd);
  }
}

/** Bytes of a file, or of every file under a folder. */
export function diskBytes(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .reduce((sum, e) => sum + statSync(join(e.parentPath, e.name)).size, 0);
}
