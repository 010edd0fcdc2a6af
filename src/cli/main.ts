#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { SiteSearchError } from '../errors.js';
import { parseCommandLine, type Flags } from './args.js';
import type { PushTarget } from '../indexer/push.js';
import { runIndexJobInWorker } from '../indexer/threads/index-thread.js';
import { loadConfig, type LoadedConfig } from './load-config.js';
import { formatWarning, printable, progress, summary, terminalJson } from './report.js';

// Each command imports what only it needs when it runs (the dev server, the search, the wrangler config parsers):
// `site-search index` starts its worker without loading any of them.

const USAGE = `Usage: site-search <command> [options]

Commands
  index [dir]          Build the index and push it (default: the local SQLite file)
      --sqlite PATH      local SQLite file (default: sqlitePath, .site-search/search.db)
      --d1 local|remote  push to Cloudflare D1 with wrangler d1 execute
                         (arguments after -- go to wrangler: -- --env production)
      --out FILE.sql     only write the SQL (the whole site: a file cannot read its target)
      --full             rewrite the site's rows whole (default: only pages added, changed or removed)
      --dry-run          say what the push would write, write nothing
  dev [dir]            Index into local SQLite, serve the endpoint and a search page, re-index on change
      --port N           (default 4545)   --host H (default 127.0.0.1)
      --cors             send Access-Control-Allow-Origin: * (off in dev: other sites cannot read your drafts)
  query "text"         Search the local index
      --type T  --tags a,b  --facets type,tags  --limit N  --json
  check                Validate the options and the wrangler D1 config
  llms                 Write llms.txt and llms-full.txt (llmstxt.org) from the local index
      --out DIR          where to write them (default: .)   --origin URL  absolute page URLs on it
  stats                Search analytics: top queries, no results, corrections, results opened
      --days N           the last N days (default 30)   --json   --html report.html
      --from FILE        analytics SQLite file (default: analytics.sqlitePath, .site-search/analytics.db)
      --d1 local|remote  read them from the D1 database with wrangler
      --engine DATASET   read them from Workers Analytics Engine (SQL API; needs
                         CLOUDFLARE_ACCOUNT_ID and CLOUDFLARE_API_TOKEN)

Common options
  --config FILE        options file (default: search.config.{ts,mts,js,mjs,json} here)
  --debug              print stack traces
  [dir]                a content folder, instead of a config file (zero-config)
`;

async function main(argv: string[]): Promise<number> {
  const { command, positionals: [arg, folder], flags: values, wranglerArgs } = parseCommandLine(argv);
  const configPath = typeof values.config === 'string' ? values.config : undefined;
  if (values.help || !command) {
    process.stdout.write(USAGE);
    return command || values.help ? 0 : 1;
  }
  switch (command) {
    case 'index':
      return index(await loadConfig({ configPath, contentDir: arg }), values, wranglerArgs);
    case 'dev':
      return dev(await loadConfig({ configPath, contentDir: arg }), values);
    case 'query':
      if (!arg) throw new SiteSearchError('query needs the text to search: site-search query "content collections"');
      return query(await loadConfig({ configPath, contentDir: folder }), arg, values);
    case 'check':
      return check(await loadConfig({ configPath, contentDir: arg }));
    case 'llms':
      return (await import('./llms.js')).llms(await loadConfig({ configPath, contentDir: arg }), values);
    case 'stats':
      return (await import('./stats.js')).stats(await loadConfig({ configPath, contentDir: arg }), values, wranglerArgs);
  }
}

function pushTarget(flags: Flags, wranglerArgs: string[]): PushTarget {
  if (flags.out) return { kind: 'sql', out: resolve(String(flags.out)) };
  if (flags.d1 !== undefined) {
    // wrangler reads its config from the project the command is run in, which may not hold search.config.
    return { kind: 'd1', remote: flags.d1 === 'remote', args: wranglerArgs, cwd: process.cwd() };
  }
  return { kind: 'sqlite', path: sqliteFlag(flags) };
}

/** Paths typed on the command line are relative to where the command runs; paths in the options, to the config file. */
function sqliteFlag(flags: Flags): string | undefined {
  return typeof flags.sqlite === 'string' ? resolve(flags.sqlite) : undefined;
}

/**
 * Indexes and returns the summary line. With `warned`, a warning already printed in this process is not printed again
 * (`site-search dev` re-indexes on every save: a long page's warning would repeat each time).
 */
async function runIndex(loaded: LoadedConfig, target: PushTarget, { full = false, dryRun = false, warned }: { full?: boolean; dryRun?: boolean; warned?: Set<string> } = {}): Promise<string> {
  const started = performance.now();
  const bar = progress();
  // Documents stream from the files into the push (memory stays flat however large the site), in a worker thread.
  const outcome = await runIndexJobInWorker({ config: loaded.config, cwd: loaded.cwd, target, full, dryRun }, bar.update);
  bar.done();
  for (const w of outcome.stats.warnings) {
    const line = `[site-search] warning: ${formatWarning(w, process.cwd())}`;
    if (!warned?.has(line)) console.warn(line);
    warned?.add(line);
  }
  return summary(outcome.stats, outcome, performance.now() - started);
}

async function index(loaded: LoadedConfig, flags: Flags, wranglerArgs: string[]): Promise<number> {
  const target = pushTarget(flags, wranglerArgs);
  if (target.kind === 'd1') {
    const { checkDatabaseConfig } = await import('../indexer/wrangler.js');
    const checked = checkDatabaseConfig(loaded.config, process.cwd());
    if (!checked.ok) console.warn(checked.message);
  }
  console.log(await runIndex(loaded, target, { full: flags.full === true, dryRun: flags['dry-run'] === true }));
  return 0;
}

async function dev(loaded: LoadedConfig, flags: Flags): Promise<number> {
  const sqlitePath = sqliteFlag(flags) ?? loaded.config.sqlitePath;
  const target: PushTarget = { kind: 'sqlite', path: sqlitePath };
  const warned = new Set<string>();
  console.log(await runIndex(loaded, target, { warned }));
  const { startDevServer, ANALYTICS_REPORT_ROUTE, DEFAULT_MCP_ROUTE } = await import('./dev.js');
  const server = await startDevServer(loaded, {
    sqlitePath,
    port: Number(flags.port),
    host: String(flags.host),
    cors: flags.cors === true,
    log: (line) => console.warn(line),
    reindex: async () => console.log(await runIndex(loaded, target, { warned })),
  });
  console.log(`[site-search] search page: ${server.url}/  ·  endpoint: ${server.url}${loaded.config.apiRoute || '/api/search'}?q=…`);
  if (loaded.config.analytics) console.log(`[site-search] analytics report: ${server.url}${ANALYTICS_REPORT_ROUTE}`);
  console.log(`[site-search] MCP server for AI assistants: ${server.url}${loaded.config.mcp ? loaded.config.mcp.route : DEFAULT_MCP_ROUTE}`);
  console.log('[site-search] watching sources for changes (Ctrl+C to stop)');
  await new Promise<void>((done) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void server.close().then(done));
  });
  return 0;
}

async function query(loaded: LoadedConfig, text: string, flags: Flags): Promise<number> {
  const path = resolve(loaded.cwd, sqliteFlag(flags) ?? loaded.config.sqlitePath);
  if (!existsSync(path)) throw new SiteSearchError(`No local index at ${path}. Run "site-search index" first.`);
  const [{ openSqlite }, { runSearch }, { normalizeSearchInput }, { ALL_RANKINGS }] = await Promise.all([
    import('../db/sqlite.js'),
    import('../search/search.js'),
    import('../search/query.js'),
    import('../ranking/index.js'),
  ]);
  // One search, then the process ends: no worker threads to start.
  const db = openSqlite(path, { threads: 0 });
  try {
    // The endpoint's validation and search, and its answer: the results and, for a corrected query, the suggestion.
    const input = normalizeSearchInput(loaded.config, {
      q: text,
      type: flags.type as string | undefined,
      tags: (flags.tags as string | undefined) ?? null,
      facets: (flags.facets as string | undefined) ?? null,
      limit: (flags.limit as string | undefined) ?? null,
    });
    const { results, suggestion, facets } = await runSearch(loaded.config, db, input, { rankings: ALL_RANKINGS });
    if (flags.json) {
      console.log(terminalJson({ query: input.q, ...(suggestion ? { suggestion } : {}), results, ...(facets ? { facets } : {}) }));
      return 0;
    }
    for (const [name, counts] of Object.entries(facets ?? {})) {
      console.log(printable(`${name}: ${counts.length ? counts.map((c) => `${c.value} ${c.count}`).join(', ') : '(none)'}`));
    }
    if (results.length === 0) console.log(`No results for "${printable(text)}".`);
    else if (suggestion) console.log(`Showing results for "${printable(suggestion)}".`);
    const bold = process.stdout.isTTY ? ['\x1b[1m', '\x1b[22m'] : ['[', ']'];
    results.forEach((r, i) => {
      // Content goes through printable() before the bold marks go in: only this code sends escape sequences. The marks
      // are set aside first, so text that reads "<mark>" once unescaped stays text.
      const text = r.snippet.replace(/<mark>/g, '\uE000').replace(/<\/mark>/g, '\uE001');
      const unescaped = text.replace(/&(lt|gt|amp|quot|#39);/g, (_, e: string) => ({ lt: '<', gt: '>', amp: '&', quot: '"', '#39': "'" })[e]!);
      const snippet = printable(unescaped).replace(/\uE000/g, bold[0]!).replace(/\uE001/g, bold[1]!);
      const line = `${r.emoji ? `${r.emoji} ` : ''}${r.title}  ${r.url}  (${r.type}${r.date ? `, ${r.date}` : ''}, ${r.score.toPrecision(3)})`;
      console.log(`${i + 1}. ${printable(line)}\n   ${snippet}`);
    });
    return 0;
  } finally {
    db.close();
  }
}

async function check(loaded: LoadedConfig): Promise<number> {
  const [{ checkDatabaseConfig }, { missingSources }] = await Promise.all([import('../indexer/wrangler.js'), import('../indexer/collect.js')]);
  console.log(`[site-search] options OK${loaded.file ? ` (${loaded.file})` : ''}: ${plural(loaded.config.sources.length, 'source')}, ${loaded.config.types.length === 1 ? 'type' : 'types'} ${loaded.config.types.join(', ')}`);
  // Every problem at once: a missing content folder and a missing D1 entry are fixed in different files.
  const missing = missingSources(loaded.config, loaded.cwd);
  for (const line of missing) console.error(line);
  const checked = checkDatabaseConfig(loaded.config, process.cwd());
  if (checked.ok) {
    console.log(`[site-search] ${checked.file}: D1 database "${loaded.config.database}" is bound as "${loaded.config.binding}"${checked.environment ? ` (env.${checked.environment})` : ''}`);
  } else console.error(checked.message);
  return checked.ok && missing.length === 0 ? 0 : 1;
}

const argv = process.argv.slice(2);
main(argv).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    if (argv.includes('--debug')) console.error(e);
    else {
      const message = e instanceof Error ? e.message : String(e);
      console.error(e instanceof SiteSearchError || message.startsWith('[site-search]') ? message : `[site-search] ${message}`);
    }
    process.exitCode = 1;
  },
);

/** "1 source", "2 sources". */
function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
