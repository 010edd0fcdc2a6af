/**
 * What a query is stored as: lowercased, spaces collapsed, and whatever looks like personal data masked. A reader may
 * paste an e-mail address or an order, phone or card number into a search box; none of it is kept.
 */
const EMAIL = /[^\s@]+@[^\s@]+\.[^\s@]+/gu;
/** Six digits or more, spaces, dots and dashes between them allowed: phone, card, account and order numbers. */
const LONG_NUMBER = /\d(?:[\s.\-/]*\d){5,}/gu;

/** Stands for a masked e-mail address in a stored query. */
export const EMAIL_MASK = '[email]';
/** Stands for a masked run of digits in a stored query. */
export const NUMBER_MASK = '[number]';

/** The stored form of a query the endpoint has already validated and trimmed. */
export function storedQuery(q: string): string {
  return q.toLowerCase().replace(/\s+/gu, ' ').replace(EMAIL, EMAIL_MASK).replace(LONG_NUMBER, NUMBER_MASK).trim();
}
