/**
 * Assistants' searches counted apart from readers' (issue 46, item 5), on node:http as `site-search/node` users serve
 * both: the official MCP client searches through /mcp, a reader through the endpoint, into one real analytics file, and
 * `site-search stats` (dist/cli.js) reports them apart with their exact counts, as JSON, text and an HTML page.
 */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { createSearchHandler } from '../../src/index.js';
import { createMcpHandler } from '../../src/mcp/index.js';
import { recordAnalytics } from '../../src/analytics/index.js';
import { openAnalytics, toNodeListener, type SqliteDatabase } from '../../adapters/node.js';
import { readStats, type AnalyticsStats } from '../../src/analytics/stats.js';
import { makeProject } from '../helpers/project.js';
import { connect, indexInMemory, sampleOptions, serve } from './helpers.js';

/** A query that finds nothing, with what HTML and a terminal must escape. */
const NOTHING = '<qqzzxx> & "yyvv"';
const CLI = new URL('../../dist/cli.js', import.meta.url).pathname;
// Every search is written at once, so the report can be read right after it.
const config = sampleOptions({ analytics: { flushSeconds: 0 } });
const project = makeProject({ 'search.config.json': JSON.stringify({ database: 'mcp-analytics', sources: [{ dir: 'docs', type: 'doc', url: '/:slug/' }], analytics: true }) });
let db: SqliteDatabase;
let analyticsDb: SqliteDatabase;
const servers: Server[] = [];
let endpoint: string;
let client: Client;

beforeAll(async () => {
  db = await indexInMemory(config);
  analyticsDb = openAnalytics(config, { cwd: project.dir });
  const mcp = await serve(createMcpHandler(config, { db, analytics: analyticsDb, recordAnalytics }));
  servers.push(mcp.server);
  const search = createServer(toNodeListener(createSearchHandler(config, { db, analytics: analyticsDb, cache: false })));
  await new Promise<void>((resolve) => search.listen(0, '127.0.0.1', resolve));
  servers.push(search);
  endpoint = `http://127.0.0.1:${(search.address() as AddressInfo).port}/api/search`;
  client = await connect(mcp.url);
}, 60_000);

afterAll(async () => {
  await client?.close();
  for (const server of servers) server.close();
  db?.close();
  analyticsDb?.close();
  project.cleanup();
});

async function stats(...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [CLI, 'stats', '--from', join(project.dir, '.site-search/analytics.db'), ...args], { cwd: project.dir });
  return stdout;
}

/** Writes end after the answer: polls the file (bounded) until it holds `searches` searches in all. */
async function written(searches: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const { results } = await analyticsDb.prepare('SELECT sum(searches) AS n FROM site_search_queries').all<{ n: number | null }>();
    if (Number(results[0]?.n) >= searches) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('MCP searches in the analytics, apart from readers\'', () => {
  it('stats --json, text and --html report what assistants asked apart, with exact counts', async () => {
    for (const query of ['content collections', 'content collections', NOTHING]) {
      const result = await client.callTool({ name: 'search', arguments: { query, type: 'en' } });
      expect(result.isError).toBeFalsy();
    }
    const answer = await fetch(`${endpoint}?q=${encodeURIComponent('content collections')}&type=en`);
    expect(answer.status).toBe(200);
    await written(4);

    const report = JSON.parse(await stats('--json')) as AnalyticsStats;
    expect(report).toMatchObject({
      searches: 1,
      zeroResults: 0,
      topQueries: [{ query: 'content collections', searches: 1, zero: 0 }],
      zeroResultQueries: [],
      assistants: {
        searches: 3,
        zeroResults: 1,
        other: 0,
        topQueries: [
          { query: 'content collections', searches: 2, zero: 0 },
          { query: NOTHING, searches: 1, zero: 1 },
        ],
        zeroResultQueries: [{ query: NOTHING, searches: 1 }],
      },
    });
    expect(report.perDay.map((d) => d.searches)).toEqual([1]);
    // The same query from both is two rows of one query: the cap counts it once.
    const { results } = await analyticsDb.prepare("SELECT source, searches FROM site_search_queries WHERE query = 'content collections' ORDER BY source").all();
    expect(results).toEqual([{ source: 'endpoint', searches: 1 }, { source: 'mcp', searches: 2 }]);

    const text = await stats();
    expect(text).toContain(
      ['', 'Asked by AI assistants (MCP)', '  searches 3 · no results 1 (33.3%)', '       2  "content collections"', `       1  "${NOTHING}"  (1 with no results)`, ''].join('\n'),
    );

    const htmlFile = join(project.dir, 'report.html');
    await stats('--html', htmlFile);
    const html = readFileSync(htmlFile, 'utf8');
    expect(html).toContain('<caption>Asked by AI assistants (MCP)</caption>');
    expect(html).toContain('<td>&lt;qqzzxx&gt; &amp; &quot;yyvv&quot;</td><td>1</td><td>1</td>');
    expect(html).not.toContain('<qqzzxx>');
  });

  // Issue 54, item 6: one cap counted both, and 2,200 junk searches through MCP left 0 of 50 readers' queries of the day.
  it('a flood of assistants\' searches through MCP never evicts readers\' queries: each source has its cap', async () => {
    const cap = 100;
    const capped = sampleOptions({ analytics: { flushSeconds: 0, dailyQueryCap: cap } });
    const own = openAnalytics(capped, { cwd: join(project.dir, 'flood') });
    const mcp = await serve(createMcpHandler(capped, { db, analytics: own, recordAnalytics }));
    const endpointHandler = createSearchHandler(capped, { db, analytics: own, cache: false });
    const floodClient = await connect(mcp.url);
    const readers = Array.from({ length: 50 }, (_, i) => `${['content', 'actions', 'routing', 'images', 'deploy'][i % 5]} reader ${i}`);
    const count = async (source: string) =>
      Number((await own.prepare(`SELECT count(DISTINCT query) AS n FROM site_search_queries WHERE source = ? AND query <> ''`).bind(source).all<{ n: number }>()).results[0]!.n);
    try {
      for (const q of readers) expect((await endpointHandler(new Request(`https://docs.example/api/search?q=${encodeURIComponent(q)}`))).status).toBe(200);
      for (let i = 0; i < 50 && (await count('endpoint')) < readers.length; i++) await new Promise((r) => setTimeout(r, 20));
      for (let i = 0; i < 2.2 * cap; i++) {
        expect((await floodClient.callTool({ name: 'search', arguments: { query: `zq${i}x junk ${i}` } })).isError).toBeFalsy();
      }
      await new Promise((r) => setTimeout(r, 100));
      const { results } = await own.prepare("SELECT DISTINCT query FROM site_search_queries WHERE source = 'endpoint' AND query <> ''").all<{ query: string }>();
      expect(results.map((r) => r.query).sort()).toEqual([...readers].sort());
      expect(await count('mcp')).toBeLessThanOrEqual(cap);
      expect(await count('mcp')).toBeGreaterThan(cap / 2);
    } finally {
      await floodClient.close();
      mcp.server.close();
      own.close();
    }
  }, 120_000);

  it('reads a table written before sources were counted apart as readers\', and the first write rebuilds it keeping its rows', async () => {
    const old = openAnalytics(config, { cwd: join(project.dir, 'old') });
    old.exec('DROP TABLE site_search_queries');
    // The table as site-search wrote it before this change.
    old.exec(
      'CREATE TABLE site_search_queries (day TEXT NOT NULL, site TEXT NOT NULL, type TEXT NOT NULL, query TEXT NOT NULL, searches INTEGER NOT NULL, zero INTEGER NOT NULL, results INTEGER NOT NULL, match TEXT NOT NULL, suggestion TEXT NOT NULL, PRIMARY KEY (day, site, query, type)) WITHOUT ROWID',
    );
    const day = new Date().toISOString().slice(0, 10);
    old.exec(`INSERT INTO site_search_queries VALUES ('${day}', '', 'en', 'actions', 5, 0, 3, 'all', '')`);
    expect(await readStats(old)).toMatchObject({ searches: 5, topQueries: [{ query: 'actions', searches: 5 }], assistants: { searches: 0 } });

    const mcp = await serve(createMcpHandler(config, { db, analytics: old, recordAnalytics }));
    const oldClient = await connect(mcp.url);
    try {
      await oldClient.callTool({ name: 'search', arguments: { query: 'actions', type: 'en' } });
      let report = await readStats(old);
      for (let i = 0; i < 100 && report.assistants.searches === 0; i++) {
        await new Promise((r) => setTimeout(r, 20));
        report = await readStats(old);
      }
      expect(report).toMatchObject({ searches: 5, topQueries: [{ query: 'actions', searches: 5 }], assistants: { searches: 1, topQueries: [{ query: 'actions', searches: 1 }] } });
    } finally {
      await oldClient.close();
      mcp.server.close();
      old.close();
    }
  });
});
