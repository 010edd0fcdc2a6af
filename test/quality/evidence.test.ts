/**
 * Issue 47's ranking causes on real pages, through the real indexer, on node:sqlite: a name typed with a misspelled
 * word (on the Electron docs this repository carries, test/fixtures/electron-docs).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ELECTRON, indexOf } from '../helpers/corpus-index.js';

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
