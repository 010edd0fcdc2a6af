/**
 * Reading Analytics Engine back through its SQL API. Cloudflare's API cannot be reached from the test machine, so
 * `fetch` stands in for it here (the one fake of the analytics tests): the test checks the requests sent (address,
 * token, SQL over the columns the Worker writes) and that answers in the API's JSON format make the same report as the
 * SQL tables do.
 */
import { describe, expect, it } from 'vitest';
import { readEngineStats } from '../../src/analytics/engine-sql.js';
import { clickPoint, searchPoint } from '../../src/analytics/engine-store.js';

describe('site-search stats --engine: Analytics Engine through the SQL API', () => {
  it('asks the account SQL endpoint with the token, weights by _sample_interval, and assembles the report', async () => {
    const sent: { url: string; auth: string | null; sql: string }[] = [];
    const answers: Record<string, unknown[]> = {
      'toStartOfDay': [{ day: '2026-11-25 00:00:00', searches: '12', zero: '2' }],
      "blob7 AS url": [{ query: 'deploy', url: '/docs/deploy/', rank: 2, clicks: 3 }],
      'HAVING': [{ query: 'kubernetes', searches: 2 }],
      "blob5 = 'typo'": [{ query: 'deplyo', suggestion: 'deploy', searches: 1 }],
      'GROUP BY query ORDER BY': [{ query: 'deploy', searches: 10, zero: 0 }, { query: 'kubernetes', searches: 2, zero: 2 }],
    };
    // Assistants' searches (blob8 'mcp', the MCP server's), asked apart from readers'.
    const asked: Record<string, unknown[]> = {
      'HAVING': [{ query: 'what is <astro>', searches: 1 }],
      'GROUP BY query ORDER BY': [{ query: 'deploy', searches: 4, zero: 0 }, { query: 'what is <astro>', searches: 1, zero: 1 }],
      'AS zero FROM': [{ searches: '5', zero: '1' }],
    };
    const fetch = (async (url: string, init: RequestInit) => {
      const sql = String(init.body);
      sent.push({ url, auth: new Headers(init.headers).get('Authorization'), sql });
      const fromAssistants = sql.includes("blob8 = 'mcp'");
      if (!fromAssistants && sql.includes("blob1 = 'search'")) expect(sql).toContain("blob8 <> 'mcp'");
      const source = fromAssistants ? asked : answers;
      const key = Object.keys(source).find((k) => sql.includes(k))!;
      return new Response(JSON.stringify({ meta: [], data: source[key], rows: source[key]!.length }));
    }) as typeof globalThis.fetch;
    const stats = await readEngineStats({ accountId: 'acc123', apiToken: 'tok', dataset: 'site_search', fetch }, { days: 7, site: "o'site", now: Date.parse('2026-11-26T10:00:00Z') });

    expect(new Set(sent.map((s) => s.url))).toEqual(new Set(['https://api.cloudflare.com/client/v4/accounts/acc123/analytics_engine/sql']));
    expect(sent.every((s) => s.auth === 'Bearer tok' && s.sql.endsWith('FORMAT JSON'))).toBe(true);
    expect(sent.every((s) => s.sql.includes("index1 = 'o\\'site'") && s.sql.includes("timestamp >= toDateTime('2026-11-20 00:00:00')"))).toBe(true);
    expect(sent.every((s) => s.sql.includes('_sample_interval'))).toBe(true);
    expect(stats).toMatchObject({
      from: '2026-11-20',
      to: '2026-11-26',
      searches: 12,
      zeroResults: 2,
      clicks: 3,
      clickThroughRate: 0.25,
      perDay: [{ day: '2026-11-25', searches: 12, zero: 2 }],
      topQueries: [{ query: 'deploy', searches: 10, clicks: 3, opened: [{ url: '/docs/deploy/', rank: 2, clicks: 3 }] }, { query: 'kubernetes', zero: 2 }],
      zeroResultQueries: [{ query: 'kubernetes', searches: 2 }],
      correctedQueries: [{ query: 'deplyo', suggestion: 'deploy', searches: 1 }],
      clickRanks: [{ rank: 2, clicks: 3 }],
      assistants: {
        searches: 5,
        zeroResults: 1,
        topQueries: [{ query: 'deploy', searches: 4, zero: 0 }, { query: 'what is <astro>', searches: 1, zero: 1 }],
        zeroResultQueries: [{ query: 'what is <astro>', searches: 1 }],
      },
    });
  });

  it('reads the columns the Worker writes: blob1 kind, blob4 query, blob5 match, blob6 suggestion, blob7 url, blob8 source, double1 results, double2 rank', () => {
    expect(searchPoint({ day: '2026-11-26', site: 's', source: 'mcp', type: 'doc', query: 'deplyo', results: 3, match: 'typo', suggestion: 'deploy' })).toEqual({
      blobs: ['search', 's', 'doc', 'deplyo', 'typo', 'deploy', '', 'mcp'],
      doubles: [3, 0],
      indexes: ['s'],
    });
    expect(clickPoint({ day: '2026-11-26', site: 's', query: 'deploy', url: '/docs/deploy/', rank: 2 }).blobs[6]).toBe('/docs/deploy/');
  });

  it('refuses a dataset name that is not an identifier (it is written into the SQL)', async () => {
    await expect(readEngineStats({ accountId: 'a', apiToken: 't', dataset: 'x; DROP' })).rejects.toThrow(/--engine must be an Analytics Engine dataset name/);
  });
});
