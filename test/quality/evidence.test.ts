/**
 * Issue 47's ranking causes on real pages, through the real indexer, on node:sqlite: a name typed with a misspelled
 * word (on the Electron docs this repository carries, test/fixtures/electron-docs), a last word completed to a rare
 * word (on the astro-docs sample, test/fixtures/astro-docs-sample).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ELECTRON, indexOf } from '../helpers/corpus-index.js';
import { SAMPLE_CORPUS } from '../helpers/corpus.js';

describe('a name typed with a misspelled word, on the Electron docs', () => {
  const electron = indexOf(ELECTRON);
  beforeAll(() => electron.build(), 60_000);
  afterAll(() => electron.db.close());

  it('is the name of the word meant: `webauthn acount` finds the WebAuthnAccount page first, as `webauthn account` does', async () => {
    // The page's title is the identifier `WebAuthnAccount`, one word to the tokenizer: the words typed, joined, spell
    // `webauthnacount`, which no page holds; joined with the correction they spell the name.
    const typo = await electron.search('webauthn acount');
    expect(typo[0]?.url).toBe('/en/api/structures/webauthn-account');
    expect(typo[0]?.match).toBe('typo');
    expect((await electron.urls('webauthn account'))[0]).toBe('/en/api/structures/webauthn-account');
  });
});

describe('a last word completed, on the astro-docs sample', () => {
  const sample = indexOf(SAMPLE_CORPUS);
  beforeAll(() => sample.build(), 60_000);
  afterAll(() => sample.db.close());

  it('counts the completion below the words typed: `content coll` finds Content collections first, not the page saying "collapse"', async () => {
    // Fewer than 10 sample pages hold `content` and `coll*`, so `coll` is completed, to the shortest word starting with
    // it: "collapse", on one page (Alpine's, whose "Usage" has `Content` beside `x-collapse`). Counted as a typed word,
    // that rare word outweighed the page titled "Content collections".
    const results = await sample.search('content coll');
    expect(results[0]?.url).toBe('/en/guides/content-collections');
    expect(results.map((r) => r.url)).toContain('/en/guides/integrations-guide/alpinejs');
    expect(results[0]?.match).toBe('all');
  });
});
