/**
 * What a query is stored as: lowercased, spaces collapsed, and whatever looks like personal data or a secret masked. A
 * reader may paste an e-mail address, an order, phone or card number, a password or an API key into a search box; none
 * of it is kept. The text is NFKC-normalised first, so full-width letters, digits and `＠` are caught as their ASCII
 * forms; `%40` is read as `@`.
 */

import { codePointLength } from '../search/query.js';

/** An e-mail address, its domain dotted or not (`admin@localhost`). */
const EMAIL = /[^\s@]+@[^\s@]+/gu;
/** An e-mail address spelled out against harvesters: `john.doe at example dot com`, `jane [at] example [dot] org`. */
const SPELLED_EMAIL = /[^\s@]+\s*[[(]?\s*\bat\b\s*[\])]?\s*[^\s@]+(?:\s*[[(]?\s*\bdot\b\s*[\])]?\s*[^\s@]+)+/giu;
/** A JSON Web Token: base64url header `{"…` (`eyJ`), payload, signature. */
const JWT = /\beyJ[\w-]+\.[\w-]+(?:\.[\w-]*)?/gu;
/** Keys whose prefix says what they are: AWS access key ids, GitHub, Stripe, Slack, Google, GitLab tokens. */
const KNOWN_KEY = /\b(?:(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{12,}|gh[pousr]_\w{8,}|github_pat_\w{8,}|[spr]k_(?:live|test)_\w{4,}|xox[abeprs]-[\w-]{6,}|AIza[\w-]{20,}|glpat-[\w-]{8,})/giu;
/** `token=…`, `api_key: …`, `password=…`: the value after a name that says it is a secret. */
const NAMED_SECRET = /\b((?:access_|refresh_|id_|auth_|api_?|client_|session_)?(?:token|key|secret|password|passwd|pwd|passcode|sig|signature|session|auth|pin))\s*[:=]\s*\S+/giu;
/** `my password is hunter2`, `pin was 1234`: the word after a password word and `is`/`was`. */
const SPOKEN_SECRET = /\b(password|passwd|passcode|pwd|pin|passphrase)\s+(?:is|was)\s+\S+/giu;
/** A long run of letters and digits mixed (a key, a token, a hash): 20 characters or more with a digit and a letter. */
const OPAQUE_TOKEN = /(?<![\p{L}\p{N}_-])(?=[\p{L}\p{N}_-]*\p{N})(?=[\p{L}\p{N}_-]*\p{L})[\p{L}\p{N}_-]{20,}(?![\p{L}\p{N}_-])/gu;
/** Six digits or more in any script (Arabic-Indic too), spaces, dots and dashes between them allowed: phone, card, account and order numbers. */
const LONG_NUMBER = /\p{Nd}(?:[\s.\-/]*\p{Nd}){5,}/gu;

/** Stands for a masked e-mail address in a stored query. */
export const EMAIL_MASK = '[email]';
/** Stands for a masked run of digits in a stored query. */
export const NUMBER_MASK = '[number]';
/** Stands for a masked key, token or password in a stored query. */
export const SECRET_MASK = '[secret]';

/**
 * The stored form of a query the endpoint has already validated and trimmed (and of the suggestion shown for it), at
 * most `maxChars` code points: normalising and masking can lengthen a query, and a row's size is bounded by this
 * (docs/analytics.md, "Storage per day").
 */
export function storedQuery(q: string, maxChars: number): string {
  const stored = q
    .normalize('NFKC')
    .replace(/%40/giu, '@')
    .replace(EMAIL, EMAIL_MASK)
    .replace(SPELLED_EMAIL, EMAIL_MASK)
    .replace(JWT, SECRET_MASK)
    .replace(KNOWN_KEY, SECRET_MASK)
    .replace(NAMED_SECRET, `$1=${SECRET_MASK}`)
    .replace(SPOKEN_SECRET, `$1 ${SECRET_MASK}`)
    .replace(OPAQUE_TOKEN, SECRET_MASK)
    .replace(LONG_NUMBER, NUMBER_MASK)
    .toLowerCase()
    .replace(/\s+/gu, ' ')
    .trim();
  return codePointLength(stored) <= maxChars ? stored : [...stored].slice(0, maxChars).join('').trimEnd();
}
