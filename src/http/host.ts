/**
 * A Host header as RFC 9110 allows it: a name or IPv4 address, or an IPv6 literal in brackets, and an optional port.
 * Anything else (`a b<>`, `127.0.0.1@evil.example`, which the URL parser would read as a user name and another host)
 * never becomes the origin of result URLs.
 */
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/** Whether `host` is a well-formed Host header value (see {@link HOST}). */
export function isValidHost(host: string): boolean {
  return HOST.test(host);
}
