/**
 * Tags are values, not syntax (issue 44, item 2), on every driver (node:sqlite, better-sqlite3, D1 in Miniflare):
 * pages built by the real indexer from frontmatter with the tags an attacker or a careless author writes — a comma
 * inside a tag, café in NFC and in NFD, zero-width and bidi characters, a Chinese tag (whose full-text column gets
 * word breaks) — and every value a chip shows selects exactly the pages its count says.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearchHandler, resolveConfig, type SearchDatabase } from '../../src/index.js';
import { buildIndex, writeIndex } from '../../src/indexer/index.js';
import { DRIVERS, type TestDatabase } from '../helpers/databases.js';
import { makeProject } from '../helpers/project.js';

const NFD = 'cafe\u0301';
const NFC = 'caf\u00e9';
const project = makeProject({
  'docs/one.md': `---\ntitle: Stoat one\ntags: ["tag,with,commas", "${NFD}", "zero\\u200bwidth"]\n---\nA stoat in winter.\n`,
  'docs/two.md': `---\ntitle: Stoat two\ntags: ["${NFC}", "\\u202ereversed", "部署指南"]\n---\nA stoat in summer.\n`,
  'docs/three.md': `---\ntitle: Stoat three\ntags: "部署指南, plain"\n---\nA stoat at dusk.\n`,
});
const config = resolveConfig({ database: 'tags', sources: [{ dir: 'docs', type: 'doc', url: '/docs/:slug' }] });
afterAll(() => project.cleanup());

interface Answer {
  results: { title: string }[];
  facets?: { tags?: { value: string; count: number }[] };
}

describe.each(Object.entries(DRIVERS))('tag values: %s', (_name, open) => {
  let handle: TestDatabase;
  let db: SearchDatabase;
  const ask = async (query: string): Promise<Answer> => {
    const res = await createSearchHandler(config, { db, cache: false })(new Request(`https://example.com/api/search?${query}`));
    expect(res.status).toBe(200);
    return (await res.json()) as Answer;
  };
  const titles = async (tag: string) => (await ask(`q=stoat&limit=25&tags=${encodeURIComponent(tag)}`)).results.map((r) => r.title).sort();

  beforeAll(async () => {
    handle = await open();
    db = handle.db;
    const { documents } = await buildIndex(config, { cwd: project.dir });
    await writeIndex(db, config, documents);
  }, 60_000);
  afterAll(() => handle.close());

  it('offers each tag once, as stored and shown: one café, nothing invisible, no comma', async () => {
    const { facets } = await ask('q=stoat&facets=tags');
    expect(facets!.tags).toEqual([
      { value: NFC, count: 2 },
      { value: '部署指南', count: 2 },
      { value: 'plain', count: 1 },
      { value: 'reversed', count: 1 },
      { value: 'zerowidth', count: 1 },
    ]);
  });

  it('every chip selects the pages it counts', async () => {
    const { facets } = await ask('q=stoat&facets=tags');
    for (const { value, count } of facets!.tags!) expect({ value, found: (await titles(value)).length }).toEqual({ value, found: count });
  });

  it('takes a tag in either Unicode form, and with invisible characters, as the stored one', async () => {
    expect(await titles(NFD)).toEqual(['Stoat one', 'Stoat two']);
    expect(await titles(NFC)).toEqual(['Stoat one', 'Stoat two']);
    expect(await titles('zero\u200bwidth')).toEqual(['Stoat one']);
    expect(await titles('\u202ereversed')).toEqual(['Stoat two']);
    // The Chinese tag as typed, without the word breaks its full-text column holds.
    expect(await titles('部署指南')).toEqual(['Stoat three', 'Stoat two']);
  });

  it('indexes no tag that the tags= grammar would split', async () => {
    expect(await titles('tag,with,commas')).toEqual([]);
    const { facets } = await ask('q=stoat&facets=tags');
    expect(facets!.tags!.filter((t) => /[,\s]/.test(t.value))).toEqual([]);
  });
});
