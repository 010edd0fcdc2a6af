/**
 * The CLI parses in a worker thread while it writes SQLite (readInWorkers). Whatever the threads, the documents, their
 * order and the warnings must be exactly what one thread reads. Runs the built worker (dist/parse-worker.js), as the
 * CLI does.
 */
import { execFileSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/index.js';
import { newBuildStats, readDocuments } from '../../src/indexer/index.js';
import { readInWorkers } from '../../src/indexer/threads/parallel.js';
import { makeProject } from '../helpers/project.js';

const WORKER = new URL('../../dist/parse-worker.js', import.meta.url);
/** The internal reader's source, and the flags that let a child process import TypeScript (tsx, as vitest does). */
const PARALLEL = new URL('../../src/indexer/threads/parallel.ts', import.meta.url).href;
const TSX = ['--import', new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url).href];

const files: Record<string, string> = {};
for (let i = 0; i < 70; i++) files[`docs/page-${String(i).padStart(2, '0')}.md`] = `---\ntitle: Page ${i}\ndate: 2026-01-${String((i % 28) + 1).padStart(2, '0')}\n---\n\n## Part ${i}\n\nText of page ${i}. 路由和页面 ${i}.`;
// Over 4 KB, so its Buffer is its own (smaller ones are views into Node's shared pool and are copied before the transfer).
files['docs/long.md'] = `# Long page\n\n${'Many words on a long page. '.repeat(400)}`;
files['docs/empty.md'] = '';
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
    // 77 files: 70 pages, long, empty and bad-yaml; the draft, the binary, the broken link, the link to page-03 and
    // slug-b (the URL of slug-a, which was read first) are left out.
    expect(alone.documents.length).toBe(74);
    expect(alone.stats.warnings.length).toBeGreaterThanOrEqual(3);
    expect(await read(readInWorkers(threads, WORKER))).toEqual(alone);
  });

  it('starts its workers when made, without keeping the process alive until it reads', () => {
    // The workers load the parser while the files are listed. A reader made but never used (a build that failed
    // while listing its files) must not hold the process open: this child would never exit.
    // A file, not `--input-type=module -e`: workers inherit the flag, which fails them at once, and the child exits.
    // The reader is internal (not in site-search/indexer): the child imports it from source, with the built worker.
    project.write('made.mts', `import { readInWorkers } from ${JSON.stringify(PARALLEL)}; readInWorkers(2, new URL(${JSON.stringify(WORKER.href)})); console.log('made');`);
    expect(execFileSync(process.execPath, [...TSX, join(project.dir, 'made.mts')], { encoding: 'utf8', timeout: 10_000 })).toBe('made\n');
  });

  it('reads with more workers than batches, and the process ends when the read does', () => {
    // One page, three workers: the two without a batch are stopped, and nothing keeps the child running afterwards.
    const one = makeProject({ 'docs/only.md': '# Only\n\nOne page.' });
    try {
      const dist = (name: string) => JSON.stringify(new URL(`../../dist/${name}`, import.meta.url).href);
      one.write(
        'read.mts',
        `import { newBuildStats, readDocuments } from ${dist('indexer.js')};
        import { readInWorkers } from ${JSON.stringify(PARALLEL)};
        import { resolveConfig } from ${dist('index.js')};
        const config = resolveConfig(${JSON.stringify({ database: 'one', sources: [{ dir: 'docs', type: 'docs', url: '/docs/:slug' }] })});
        const titles = [];
        for await (const d of readDocuments(config, newBuildStats(), { cwd: ${JSON.stringify(one.dir)}, reader: readInWorkers(3, new URL(${JSON.stringify(WORKER.href)})) })) titles.push(d.title);
        console.log(titles.join());`,
      );
      expect(execFileSync(process.execPath, [...TSX, join(one.dir, 'read.mts')], { encoding: 'utf8', timeout: 10_000 })).toBe('Only\n');
    } finally {
      one.cleanup();
    }
  });

  it('fails the read with the worker error when a worker cannot start', async () => {
    await expect(read(readInWorkers(1, new URL('../../dist/no-such-worker.js', import.meta.url)))).rejects.toThrow(/no-such-worker/);
  });
});

describe('files reached by several paths', () => {
  it('indexes the path without links, otherwise the first link, whichever comes first in the listing', async () => {
    const linked = makeProject({ 'docs/z-page.md': '# Z page\n\nReal.', 'outside.md': '# Outside\n\nLinked twice.' });
    try {
      // A link listed before the file it points to, and two links to a file outside the source folder.
      symlinkSync(join(linked.dir, 'docs', 'z-page.md'), join(linked.dir, 'docs', 'a-link.md'));
      symlinkSync(join(linked.dir, 'outside.md'), join(linked.dir, 'docs', 'b-out.md'));
      symlinkSync(join(linked.dir, 'outside.md'), join(linked.dir, 'docs', 'c-out.md'));
      for (const reader of [undefined, readInWorkers(1, WORKER)]) {
        const stats = newBuildStats();
        const urls = [];
        // Links out of the source folder are skipped unless allowed (hardening-round3.test.ts): allowed here.
        for await (const d of readDocuments({ ...config, followLinksOutside: true }, stats, { cwd: linked.dir, reader })) urls.push(d.url);
        expect(urls).toEqual(['/docs/b-out', '/docs/z-page']);
        expect(stats.warnings.map((w) => `${w.file.slice(linked.dir.length + 1)}: ${w.message.replace(linked.dir, '')}`)).toEqual([
          'docs/a-link.md: is the same file as /docs/z-page.md (through a symbolic link); skipped',
          'docs/c-out.md: is the same file as /docs/b-out.md (through a symbolic link); skipped',
        ]);
      }
    } finally {
      linked.cleanup();
    }
  });
});
