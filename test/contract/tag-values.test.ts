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
import { forgetKnownIndexes as forgetTypoIndexes } from '../../src/search/known-index.js';
import { seed } from '../helpers/documents.js';
import { observe } from '../helpers/observe.js';
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
  facets?: { type?: { value: string; count: number }[]; tags?: { value: string; count: number }[] };
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

// Where rows read are billed (D1), the counts take one pass over the matches and gather their tags into one value:
// past what D1 holds in one value (SQLITE_TOOBIG, 2 MB) the search runs again counting through groups, and answers
// the same counts. 600 pages of 400 tags each (2.9 MB of tags) is past it.
describe('tag counts past what D1 holds in one value', () => {
  let handle: TestDatabase;
  const TAGS = Array.from({ length: 400 }, (_, i) => `tag${String(i).padStart(5, '0')}`);
  beforeAll(async () => {
    handle = await DRIVERS['D1 (Miniflare)']!();
    await seed(handle.db, Array.from({ length: 600 }, (_, i) => ({ title: `Marten ${i}`, content: 'A marten.', tags: TAGS.join(' '), url: `/docs/m${i}/`, type: 'doc' })));
  }, 120_000);
  afterAll(() => handle.close());

  it('counts through groups in a second statement, with the same counts', async () => {
    // The search's statements (the vocabulary a process loads after a search is read apart), through a wrapper that
    // keeps the binding's Sessions API, so the search takes D1's plan.
    // The vocabulary read first (the suites above load theirs): the first statement reads it, the next ones rank.
    forgetTypoIndexes();
    const counts: string[] = [];
    const counted = observe(handle.db, (sql) => counts.push(/\bfacet_tag_list\b/.test(sql) ? 'one pass' : /\bfacet_tag_groups\b/.test(sql) ? 'groups' : 'other'));
    const res = await createSearchHandler(config, { db: counted, cache: false })(new Request('https://example.com/api/search?q=marten&facets=type,tags'));
    expect(res.status).toBe(200);
    const { facets } = (await res.json()) as Answer;
    expect(facets).toEqual({ type: [{ value: 'doc', count: 600 }], tags: TAGS.slice(0, 20).map((value) => ({ value, count: 600 })) });
    expect(counts.filter((c) => c !== 'other')).toEqual(['one pass', 'groups']);
  });
});
