/**
 * Masking against forms the first round's list did not name (issue 44, row 8, repeat attack): an e-mail with a
 * bracketed `at`, card and phone numbers grouped by other dashes, underscores, commas or parentheses, a base64 secret
 * whose `/` split it into short runs, a bearer credential, and password phrases with `pass`, `pw` or `'s`. Each is
 * what `storedQuery` keeps (the function the recorder stores every query and suggestion through); searches that merely
 * look like these stay as typed.
 */
import { describe, expect, it } from 'vitest';
import { storedQuery } from '../../src/analytics/query-text.js';

const stored = (q: string) => storedQuery(q, 100);

describe('masking: forms beyond the first list', () => {
  it.each([
    ['john(at)example.com', 'john'],
    ['jane [at] example.org', 'jane'],
    ['mail me {at} mail.example.net', 'mail.example'],
    ['4111–1111–1111–1111', '1111'],
    ['4111‐1111‐1111‐1111', '1111'],
    ['4111_1111_1111_1111', '1111'],
    ['4111,1111,1111,1111', '1111'],
    ['call 555·123·4567', '4567'],
    ['+1 (555) 123-4567', '555'],
    ['wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'k7mdeng'],
    ['Authorization: Bearer ya29.a0AfH6SMBx3d', 'a0afh6'],
    ['my pass is hunter2', 'hunter2'],
    ['my pw is hunter2', 'hunter2'],
    ["my password's hunter2", 'hunter2'],
    ['pass=hunter2', 'hunter2'],
  ])('%s: stored without %s', (typed, secret) => {
    expect(stored(typed)).not.toContain(secret);
    expect(stored(typed)).toMatch(/\[(email|number|secret)\]/);
  });

  it.each(['deploy at vercel.com', 'password reset', 'bearer token auth', 'pass props to component', 'react 18.2.0', 'src/components/Button.astro', '1,000 pages', 'image (at) 2x'])(
    '%s: a search, stored as typed (lowercased)',
    (typed) => {
      expect(stored(typed)).toBe(typed.toLowerCase());
    },
  );
});
