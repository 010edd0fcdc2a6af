/**
 * The tests' waits for a server to start (issue 33, item 11): long enough for a loaded machine, short of hiding a hang,
 * and a failure that shows where the process stopped. Real child processes; the caps are shortened so a hang is
 * reached in a second.
 */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort, start } from '../frameworks/harness.js';
import { startDevServer } from '../helpers/dev-server.js';
import { makeProject } from '../helpers/project.js';

const node = (script: string) => [process.execPath, '-e', script];

describe('start() of the framework harness', () => {
  it('gives up on an app that never answers at the cap, stops it, and shows its last output', async () => {
    const port = await freePort();
    const began = Date.now();
    await expect(start(node("console.log('compiling routes…'); setInterval(() => {}, 1000);"), { cwd: process.cwd(), port, capMs: 1500 })).rejects.toThrow(
      new RegExp(`did not answer on http://127\\.0\\.0\\.1:${port} within 1\\.5 s \\(stopped\\)\\. Its last output:\\ncompiling routes…`),
    );
    expect(Date.now() - began).toBeLessThan(10_000);
  }, 15_000);

  it('fails at once when the app exits, with what it printed', async () => {
    const began = Date.now();
    await expect(start(node("console.error('Error: Cannot find module astro'); process.exit(3);"), { cwd: process.cwd(), port: await freePort() })).rejects.toThrow(
      /exited \(3\) before answering on http:\/\/127\.0\.0\.1:\d+\. Its output:\nError: Cannot find module astro/,
    );
    expect(Date.now() - began).toBeLessThan(10_000);
  }, 15_000);

  it('waits for an app that answers only after a while', async () => {
    const port = await freePort();
    const app = await start(node(`setTimeout(() => require('node:http').createServer((q, s) => s.end('ok')).listen(${port}, '127.0.0.1'), 1500);`), { cwd: process.cwd(), port });
    try {
      expect(await (await fetch(`${app.origin}/`)).text()).toBe('ok');
    } finally {
      await app.stop();
    }
  }, 30_000);

  it('does not take a server that accepts connections but never answers for a started app', async () => {
    const silent = createServer(() => {}).listen(0, '127.0.0.1');
    await new Promise((r) => silent.once('listening', r));
    const port = (silent.address() as { port: number }).port;
    try {
      await expect(start(node('setInterval(() => {}, 1000);'), { cwd: process.cwd(), port, capMs: 1500 })).rejects.toThrow(/did not answer .* within 1\.5 s/);
    } finally {
      silent.close();
    }
  }, 15_000);
});

describe('startDevServer()', () => {
  it('rejects with the CLI\'s own error when site-search dev exits before serving', async () => {
    const site = makeProject({ 'content/a.md': '# A\n\nhello' });
    try {
      await expect(startDevServer(['./nowhere', '--port', '0'], site.dir)).rejects.toThrow(
        /site-search dev \.\/nowhere --port 0 exited \(1\) before printing its URL\. Its output:\n.*sources\[0\]\.dir: nowhere is not a directory/,
      );
    } finally {
      site.cleanup();
    }
  }, 30_000);

  it('gives up at the cap with its last output', async () => {
    const site = makeProject({ 'content/a.md': '# A\n\nhello' });
    try {
      await expect(startDevServer(['./content', '--port', '0'], site.dir, { capMs: 1 })).rejects.toThrow(/printed no URL within 0\.001 s\. Its last output:/);
    } finally {
      site.cleanup();
    }
  }, 30_000);
});
