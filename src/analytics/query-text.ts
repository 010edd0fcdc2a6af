/**
 * What a query is stored as: lowercased, spaces collapsed, and whatever looks like personal data or a secret masked. A
 * reader may paste an e-mail address, an order, phone or card number, a password or an API key into a search box; none
 * of it is kept. The text is NFKC-normalised first, so full-width letters, digits and `＠` are caught as their ASCII
 * forms; `%40` is read as `@`.
 */

import { codePointLength } from '../text/code-points.js';

/** An e-mail address, its domain dotted or not (`admin@localhost`). */
const EMAIL = /[^\s@]+@[^\s@]+/gu;
/** An e-mail address spelled out against harvesters: `john.doe at example dot com`, `jane [at] example [dot] org`. */
const SPELLED_EMAIL = /[^\s@]+\s*[[(]?\s*\bat\b\s*[\])]?\s*[^\s@]+(?:\s*[[(]?\s*\bdot\b\s*[\])]?\s*[^\s@]+)+/giu;
/**
 * `john(at)example.com`, `jane [at] example.org`: a bracketed `at` before a dotted domain (a plain `at` is left alone:
 * `deploy at vercel.com` is a search, not an address).
 */
const BRACKETED_AT_EMAIL = /[^\s@]+\s*[[({]\s*at\s*[\])}]\s*[^\s@.]+(?:\.[^\s@.]+)+/giu;
/** A JSON Web Token: base64url header `{"…` (`eyJ`), payload, signature. */
const JWT = /\beyJ[\w-]+\.[\w-]+(?:\.[\w-]*)?/gu;
/** Keys whose prefix says what they are: AWS access key ids, GitHub, Stripe, Slack, Google, GitLab tokens. */
const KNOWN_KEY = /\b(?:(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{12,}|gh[pousr]_\w{8,}|github_pat_\w{8,}|[spr]k_(?:live|test)_\w{4,}|xox[abeprs]-[\w-]{6,}|AIza[\w-]{20,}|glpat-[\w-]{8,})/giu;
/** `token=…`, `api_key: …`, `password=…`, `pass=…`: the value after a name that says it is a secret. */
const NAMED_SECRET = /\b((?:access_|refresh_|id_|auth_|api_?|client_|session_)?(?:token|key|secret|password|passwd|pwd|passcode|pass|pw|sig|signature|session|auth|pin))\s*[:=]\s*\S+/giu;
/** `my password is hunter2`, `my pw is hunter2`, `password's hunter2`: the word after a password word and `is`/`was`/`'s`. */
const SPOKEN_SECRET = /\b(password|passwd|passcode|pwd|pin|passphrase|pass|pw)(?:\s+(?:is|was)|['’]s)\s+\S+/giu;
/** `Bearer ya29.a0Af…`: an HTTP bearer credential (a digit in it: `bearer token` is a search). */
const BEARER = /\b(bearer)\s+(?=\S*\p{N})\S{8,}/giu;
/**
 * A base64 key (an AWS secret access key: `wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`), whose `/` and `+` split it into
 * runs too short for {@link OPAQUE_TOKEN}: 30 characters or more with an upper- and a lower-case letter and a digit.
 */
const BASE64_KEY = /(?<![A-Za-z0-9+/=_-])(?=[A-Za-z0-9+/=_-]*[0-9])(?=[A-Za-z0-9+/=_-]*[a-z])(?=[A-Za-z0-9+/=_-]*[A-Z])[A-Za-z0-9+/_-]{30,}=*(?![A-Za-z0-9+/=_-])/gu;
/** A long run of letters and digits mixed (a key, a token, a hash): 20 characters or more with a digit and a letter. */
const OPAQUE_TOKEN = /(?<![\p{L}\p{N}_-])(?=[\p{L}\p{N}_-]*\p{N})(?=[\p{L}\p{N}_-]*\p{L})[\p{L}\p{N}_-]{20,}(?![\p{L}\p{N}_-])/gu;
/**
 * Six digits or more in any script (Arabic-Indic too), with what people write between groups (spaces, dots, commas,
 * underscores, slashes, parentheses, middle dots, any dash: `4111–1111–1111–1111`, `+1 (555) 123-4567`): phone, card,
 * account and order numbers.
 */
const LONG_NUMBER = /\p{Nd}(?:[\s.,_/()·\p{Pd}]*\p{Nd}){5,}/gu;

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
    .replace(BRACKETED_AT_EMAIL, EMAIL_MASK)
    .replace(JWT, SECRET_MASK)
    .replace(KNOWN_KEY, SECRET_MASK)
    .replace(NAMED_SECRET, `$1=${SECRET_MASK}`)
    .replace(SPOKEN_SECRET, `$1 ${SECRET_MASK}`)
    .replace(BEARER, `$1 ${SECRET_MASK}`)
    .replace(BASE64_KEY, SECRET_MASK)
    .replace(OPAQUE_TOKEN, SECRET_MASK)
    .replace(LONG_NUMBER, NUMBER_MASK)
    .toLowerCase()
    .replace(/\s+/gu, ' ')
    .trim();
  return codePointLength(stored) <= maxChars ? stored : [...stored].slice(0, maxChars).join('').trimEnd();
}
