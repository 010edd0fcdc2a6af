/**
 * Issue 53, "the missing peer named": `mcp: true` on a site without the optional peer `@modelcontextprotocol/server`.
 * Vite bundles a stub for a missing optional peer, and the build used to fail on it naming an export and a virtual
 * module (`"McpServer" is not exported by "__vite-optional-peer-dep:@modelcontextprotocol/server:site-search"`).
 *
 * The app is astro5-node, which does not install the SDK, copied out of the repository: inside it, Node and Vite find
 * the SDK in the repository's own node_modules (a dev dependency), as they would not on a user's machine.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { MISSING_MCP_SDK_MESSAGE } from '../../src/errors.js';
import { appDir, options } from './harness.js';

const run = promisify(execFile);
const plain = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');

describe('astro build with mcp: true and no @modelcontextprotocol/server', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'site-search-no-mcp-sdk-'));
  const dir = join(tmp, 'app');
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  const build = async (config: object) => {
    writeFileSync(join(dir, 'search.config.mjs'), `export default ${JSON.stringify(config)};\n`);
    return run('npx', ['astro', 'build'], { cwd: dir, env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' } }).then(
      ({ stdout, stderr }) => ({ failed: false, output: plain(stdout + stderr) }),
      (e: { stdout: string; stderr: string }) => ({ failed: true, output: plain(e.stdout + e.stderr) }),
    );
  };

  it('fails with one line naming the package to install, and builds without mcp', async () => {
    cpSync(appDir('astro5-node'), dir, { recursive: true });
    rmSync(join(dir, 'dist'), { recursive: true, force: true });

    const withMcp = await build({ ...options, mcp: true });
    expect(withMcp.failed).toBe(true);
    expect(withMcp.output.split('\n')).toContain(MISSING_MCP_SDK_MESSAGE);
    expect(withMcp.output).not.toContain('__vite-optional-peer-dep');

    // The check is the mcp option's, not the integration's: the same app without it builds.
    const without = await build(options);
    expect(without.failed, without.output).toBe(false);
    expect(without.output).not.toContain('@modelcontextprotocol/server');
  }, 180_000);
});
