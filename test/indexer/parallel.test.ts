/**
 * The CLI parses in a worker thread while it writes SQLite (readInWorkers). Whatever the threads, the documents, their
 * order and the warnings must be exactly what one thread reads. Runs the built worker (dist/parse-worker.js), as the
 * CLI does.
 */
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/index.js';
import { newBuildStats, readDocuments } from '../../src/indexer/index.js';
import { readInWorkers } from '../../src/indexer/parallel.js';
import { makeProject } from '../helpers/project.js';

const WORKER = new URL('../../dist/parse-worker.js', import.meta.url);

const files: Record<string, string> = {};
for (let i = 0; i < 70; i++) files[`docs/page-${String(i).padStart(2, '0')}.md`] = `---\ntitle: Page ${i}\ndate: 2026-01-${String((i % 28) + 1).padStart(2, '0')}\n---\n\n## Part ${i}\n\nText of page ${i}. 路由和页面 ${i}.`;
files['docs/draft.md'] = '---\ntitle: Draft\ndraft: true\n---\nNot yet.';
files['docs/bad-yaml.md'] = '---\ntitle: [unclosed\n---\nBody still indexed.';
files['docs/binary.md'] = 'PNG\u0000\u0000\u0001';
files['docs/slug-a.md'] = '---\nslug: same\n---\nOne.';
files['docs/slug-b.md'] = '---\nslug: same\n---\nTwo.';
const project = makeProject(files);
symlinkSync(join(project.dir, 'docs', 'page-03.md'), join(project.dir, 'docs', 'zz-link.md'));
symlinkSync(join(project.dir, 'docs', 'missing.md'), join(project.dir, 'docs', 'zz-broken.md'));
afterAll(() => project.cleanup());

const config = resolveConfig({ database: 'parallel', sources: [{ dir: 'docs', type: 'docs', url: '/docs/:slug' }] });

async function read(reader?: ReturnType<typeof readInWorkers>) {
  const stats = newBuildStats();
  const documents = [];
  for await (const d of readDocuments(config, stats, { cwd: project.dir, reader })) documents.push(d);
  return { documents, stats };
}

describe('reading in parse workers', () => {
  it.each([1, 2, 3])('gives exactly what one thread reads, in the same order, with %i worker(s)', async (threads) => {
    const alone = await read();
    expect(alone.documents.length).toBe(73);
    expect(alone.stats.warnings.length).toBeGreaterThanOrEqual(3);
    expect(await read(readInWorkers(threads, WORKER))).toEqual(alone);
  });

  it('fails the read with the worker error when a worker cannot start', async () => {
    await expect(read(readInWorkers(1, new URL('../../dist/no-such-worker.js', import.meta.url)))).rejects.toThrow(/no-such-worker/);
  });
});
