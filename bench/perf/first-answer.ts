/** The first answer of a fresh process: open the index (or load a peer's JSON) and search once. */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { corpusOptions } from '../labeled-queries.js';
import { here } from './measure.js';

/** The first-answer row the target compares with. */
export const MINISEARCH_FIRST_ROW = 'MiniSearch: load JSON index + search';
/** The first-answer row of site-search. */
export const SQLITE_FIRST_ROW = 'site-search: open SQLite file + search';

/**
 * From a fresh process to the first answer, index on disk: our SQLite file vs the peers' serialized indexes. In the
 * child's own process CPU time (it reports it), Node's start included: a busy machine's waits do not count.
 */
export function firstAnswer(sqlite: string, { mini, orama, flex }: { mini: string; orama: string; flex: string }) {
  const time = (args: string[]) => {
    const samples: number[] = [];
    for (let i = 0; i < 5; i++) {
      const r = spawnSync(process.execPath, [join(here, 'child.mjs'), ...args], { cwd: join(here, '..') });
      if (r.status !== 0) throw new Error(String(r.stderr));
      const report = JSON.parse(String(r.stdout).trim().split('\n').pop()!) as { cpuMs: number; first?: string };
      samples.push(report.cpuMs);
      // A load that lost the index would answer nothing, fast: every engine must find a page.
      if (!report.first) throw new Error(`[bench] ${args[0]} found nothing`);
    }
    return samples.sort((a, b) => a - b)[2]!;
  };
  const miniOptions = JSON.stringify({ fields: ['title', 'description', 'tags', 'content'], storeFields: ['url', 'type'] });
  return {
    [SQLITE_FIRST_ROW]: time(['first-answer-sqlite', sqlite, JSON.stringify(corpusOptions())]),
    [MINISEARCH_FIRST_ROW]: time(['first-answer-minisearch', mini, miniOptions]),
    'Orama: load() its saved JSON + search': time(['first-answer-orama', orama]),
    'FlexSearch: import() its exported JSON + search': time(['first-answer-flexsearch', flex]),
  };
}
