/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`, pinned in devDependencies) run against the
 * MCP handler served by node:http on a loopback address, one scenario at a time. `tools-call-error` calls a tool of
 * the suite's own (`test_error_handling`), registered here on each request's server through the handler's test hook;
 * it fails the way site-search's tools fail (a tool error with words, never a stack).
 */
import { execFile } from 'node:child_process';
import type { Server } from 'node:http';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpHandler } from '../../src/mcp/index.js';
import type { SqliteDatabase } from '../../adapters/node.js';
import { indexInMemory, sampleOptions, serve } from './helpers.js';

const run = promisify(execFile);
const CLI = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/conformance/dist/index.js', import.meta.url));

let db: SqliteDatabase;
let server: Server;
let url: string;

beforeAll(async () => {
  const config = sampleOptions();
  db = await indexInMemory(config);
  const handler = createMcpHandler(config, {
    db,
    extraTools: (s) =>
      s.registerTool('test_error_handling', { description: 'Always fails (conformance suite).' }, async () => {
        throw new Error('This tool intentionally returns an error for testing');
      }),
  });
  ({ server, url } = await serve(handler, 'localhost'));
}, 60_000);

afterAll(() => {
  server?.close();
  db?.close();
});

describe('the official MCP conformance suite', () => {
  it.each(['server-initialize', 'tools-list', 'ping', 'tools-call-error', 'dns-rebinding-protection'])('passes %s', async (scenario) => {
    const { stdout } = await run(process.execPath, [CLI, 'server', '--url', url, '--scenario', scenario], { timeout: 60_000 }).catch(
      (e: { stdout: string; stderr: string }) => ({ stdout: `${e.stdout}\n${e.stderr}` }),
    );
    expect(stdout, stdout).toMatch(/Passed:\s*\d+\/\d+, 0 failed/);
  }, 90_000);
});
