/**
 * Attack round 3, item 6 (issue 34; docs/security.md): a request with two Host headers. RFC 9112 (3.2) requires a 400;
 * Node keeps the first and drops the rest, so the Node listener and `site-search dev` answered as if there were one.
 * Sent over a raw socket: fetch never sends a header twice.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlite, toNodeListener } from '../../adapters/node.js';
import { createSearchHandler } from '../../src/index.js';
import { startDevServer } from '../helpers/dev-server.js';
import { seed, siteDocs } from '../helpers/documents.js';
import { makeProject } from '../helpers/project.js';
import { rawRequest } from '../helpers/raw-request.js';

const twoHosts = (first: string, second: string) =>
  `GET /api/search?q=deploy HTTP/1.1\r\nHost: ${first}\r\nhost: ${second}\r\nConnection: close\r\n\r\n`;
/** The JSON body of a raw answer (sent chunked: the object sits between the chunk sizes). */
const body = (answer: string) => JSON.parse(/\{"error":.*\}/.exec(answer)?.[0] ?? 'null') as { error: string } | null;
const oneHost = (host: string) => `GET /api/search?q=deploy HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`;

describe('the Node listener', () => {
  let server: Server;
  let port: number;
  const db = openSqlite(':memory:');
  beforeAll(async () => {
    await seed(db, siteDocs());
    const handler = createSearchHandler({ database: 'd', sources: [{ dir: 'docs', type: 'doc', url: '/docs/:slug' }] }, { db, cache: false });
    server = createServer(toNodeListener(handler));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => {
    server.close();
    db.close();
  });

  it.each([
    ['another host second', ['docs.example.com', 'evil.example']],
    ['the same host twice', ['docs.example.com', 'docs.example.com']],
  ])('answers two Host headers (%s) with a JSON 400', async (_, [first, second]) => {
    const answer = await rawRequest(port, twoHosts(first!, second!));
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toMatch(/content-type: application\/json/i);
    expect(body(answer)).toEqual({ error: 'Bad request: more than one Host header' });
  });

  it('still answers one Host header, with result URLs on it', async () => {
    const answer = await rawRequest(port, oneHost('docs.example.com'));
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toContain('"url":"http://docs.example.com/docs/deploy/cloudflare/"');
  });
});

describe('site-search dev', () => {
  it('answers two Host headers with a JSON 400 on every path, one localhost Host with a 200', async () => {
    const site = makeProject({ 'content/deploy.md': '# Deploy\n\nHow to deploy the site.' });
    const { child, url } = await startDevServer(['./content', '--port', '0'], site.dir);
    const port = Number(new URL(url).port);
    try {
      for (const hosts of [[`localhost:${port}`, 'evil.example'], [`localhost:${port}`, `localhost:${port}`]] as const) {
        for (const path of ['/api/search?q=deploy', '/', '/deploy']) {
          const answer = await rawRequest(port, twoHosts(hosts[0], hosts[1]).replace('/api/search?q=deploy', path));
          expect(answer, `${path} ${hosts.join(', ')}`).toMatch(/^HTTP\/1\.1 400 /);
          expect(body(answer)?.error).toBe('[site-search] Bad request: more than one Host header (RFC 9112 allows one).');
        }
      }
      expect(await rawRequest(port, oneHost(`localhost:${port}`))).toMatch(/^HTTP\/1\.1 200 /);
    } finally {
      child.kill('SIGTERM');
      site.cleanup();
    }
  }, 150_000); // above startDevServer's cap, so a slow start fails with the server's output
});
