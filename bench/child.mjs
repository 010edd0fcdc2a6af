// Work run in a fresh process, so its time and peak memory are its own. Uses the built package (dist/), as users do.
// node bench/child.mjs <task> [args…] prints one JSON line.
import { createReadStream, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { createInterface } from 'node:readline';
const [task, ...args] = process.argv.slice(2);
const started = performance.now();
const rss = () => Math.round(process.resourceUsage().maxRSS / 1024); // MB
/** This process's CPU time so far (user + system, ms): what its work cost, however busy the machine was. */
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const done = (extra) => console.log(JSON.stringify({ ms: performance.now() - started, cpuMs: cpuMs(), rssMB: rss(), ...extra }));

/** The records (one JSON object per line), one at a time: 100,000 of them do not fit in one JavaScript string. */
const eachRecord = (path) => (async function* () {
  for await (const line of createInterface({ input: createReadStream(path) })) if (line) yield JSON.parse(line);
})();

/**
 * Peak RSS (MB) of this process's child processes, read from Linux's /proc while they still run: Pagefind builds its
 * index in a service process of its own, which this process's own peak RSS does not include.
 */
function childrenPeakMB() {
  const tasks = `/proc/${process.pid}/task`;
  if (!existsSync(tasks)) return 0;
  let kb = 0;
  for (const task of readdirSync(tasks)) {
    for (const pid of readFileSync(`${tasks}/${task}/children`, 'utf8').split(' ').filter(Boolean)) {
      const hwm = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (hwm) kb += Number(hwm[1]);
    }
  }
  return Math.round(kb / 1024);
}

/** The peers' index definitions, shared by their builds and by loading what a build wrote. */
const ORAMA_SCHEMA = { title: 'string', description: 'string', tags: 'string', content: 'string', url: 'string', type: 'enum' };
const FLEXSEARCH_OPTIONS = { document: { id: 'id', index: ['title', 'description', 'tags', 'content'], tag: ['type'], store: ['url'] } };

if (task === 'first-answer-sqlite') {
  // Open the SQLite index on disk and answer one query.
  const { openSqlite } = await import('../dist/node.js');
  const { searchIndex, resolveConfig } = await import('../dist/index.js');
  const config = resolveConfig(JSON.parse(args[1]));
  const results = await searchIndex(config, { db: openSqlite(args[0]), q: 'content collections', type: 'en' });
  done({ first: results[0]?.url });
} else if (task === 'first-answer-minisearch') {
  // Load a serialized MiniSearch index (JSON) and answer one query.
  const { default: MiniSearch } = await import('minisearch');
  const index = MiniSearch.loadJSON(readFileSync(args[0], 'utf8'), JSON.parse(args[1]));
  const results = index.search('content collections', { filter: (r) => r.type === 'en' });
  done({ first: results[0]?.url });
} else if (task === 'first-answer-orama') {
  // Load a serialized Orama database (its save() as JSON) and answer one query.
  const { create, load, search } = await import('@orama/orama');
  const db = create({ schema: ORAMA_SCHEMA });
  load(db, JSON.parse(readFileSync(args[0], 'utf8')));
  const { hits } = await search(db, { term: 'content collections', where: { type: { eq: 'en' } } });
  done({ first: hits[0]?.document.url });
} else if (task === 'first-answer-flexsearch') {
  // Import an exported FlexSearch Document index (its export() keys as one JSON object) and answer one query.
  const { Document } = await import('flexsearch');
  const index = new Document(FLEXSEARCH_OPTIONS);
  for (const [key, data] of Object.entries(JSON.parse(readFileSync(args[0], 'utf8')))) index.import(key, data);
  const fields = index.search('content collections', { limit: 10, tag: { type: 'en' }, enrich: true });
  done({ first: fields[0]?.result[0]?.doc.url });
} else if (task === 'build') {
  // Build an engine's index from the extracted records (records-<n>.ndjson) and report time and peak memory.
  const engine = args[0];
  // Every engine but Pagefind (whose API takes one record at a time) is given all the records at once, as its API needs.
  const records = [];
  if (engine !== 'Pagefind') for await (const r of eachRecord(args[1])) records.push(r);
  const t = performance.now();
  let serviceMB = 0;
  if (engine === 'MiniSearch') {
    const { default: MiniSearch } = await import('minisearch');
    const ms = new MiniSearch({ fields: ['title', 'description', 'tags', 'content'], storeFields: ['url', 'type'] });
    ms.addAll(records.map((r, id) => ({ ...r, id })));
    if (args[2]) writeFileSync(args[2], JSON.stringify(ms));
  } else if (engine === 'Orama') {
    const { create, insertMultiple, save } = await import('@orama/orama');
    const db = create({ schema: ORAMA_SCHEMA });
    await insertMultiple(db, records.map(({ title, description, tags, content, url, type }) => ({ title, description, tags, content, url, type })));
    if (args[2]) writeFileSync(args[2], JSON.stringify(save(db)));
  } else if (engine === 'FlexSearch') {
    const { Document } = await import('flexsearch');
    const index = new Document(FLEXSEARCH_OPTIONS);
    records.forEach((r, id) => index.add({ ...r, id }));
    if (args[2]) {
      const exported = {};
      index.export((key, data) => (exported[key] = data));
      writeFileSync(args[2], JSON.stringify(exported));
    }
  } else if (engine === 'site-search') {
    // The same records as the peers (as our parser produced them: with sections and word breaks), written to SQLite:
    // the indexing step the peers' figures measure, without reading and parsing Markdown.
    const { pushIndex } = await import('../dist/indexer.js');
    const { resolveConfig } = await import('../dist/index.js');
    await pushIndex(resolveConfig(JSON.parse(args[3])), { kind: 'sqlite', path: args[2] }, records);
  } else if (engine === 'Pagefind') {
    const pagefind = await import('pagefind');
    const { index } = await pagefind.createIndex({});
    for await (const r of eachRecord(args[1])) {
      await index.addCustomRecord({ url: r.url, content: `${r.title}\n${r.description}\n${r.content}`, language: 'en', meta: { title: r.title } });
    }
    await index.writeFiles({ outputPath: args[2] });
    serviceMB = childrenPeakMB();
    await pagefind.close();
  }
  const buildMs = performance.now() - t;
  // A build's peak memory is its process's plus (Pagefind) its service process's: each one's peak, added.
  done({ buildMs, rssMB: rss() + serviceMB, serviceMB });
} else if (task === 'cli-index') {
  // The site-search CLI itself, in this process (so the peak memory measured is the CLI's): index files into SQLite.
  process.argv = [process.argv[0], 'site-search', 'index', '--config', args[0], '--sqlite', args[1]];
  const log = console.log;
  let summary = '';
  console.log = (line) => (summary += line);
  process.on('exit', () => {
    console.log = log;
    done({ buildMs: performance.now() - started, summary });
  });
  await import('../dist/cli.js');
}
