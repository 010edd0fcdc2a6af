/**
 * Requests that arrived on a loopback socket (127.0.0.1, ::1), as the Node listener saw them: a server bound there
 * serves the machine it runs on, and a page elsewhere can still reach it by DNS rebinding (its own name resolving to
 * 127.0.0.1), so the MCP handler refuses such a request unless its Host names this machine. Marked by the listener,
 * which alone knows the socket; a request header could be forged.
 * @internal
 */
const loopback = new WeakSet<Request>();

/** Marks a request as having arrived on a loopback socket. */
export function markLoopback(request: Request): void {
  loopback.add(request);
}

/** Whether the listener marked this request as having arrived on a loopback socket. */
export function cameOverLoopback(request: Request): boolean {
  return loopback.has(request);
}

/** Whether a socket address is a loopback one (IPv4 127/8, IPv6 ::1, or 127/8 mapped into IPv6). */
export function isLoopbackAddress(address: string | undefined): boolean {
  return !!address && (address === '::1' || /^(?:::ffff:)?127\./.test(address));
}

/**
 * Whether a URL's hostname is one a DNS rebinding attack cannot send: `localhost` (and `*.localhost`, which browsers
 * resolve to this machine themselves) or an IP address (127.0.0.1, [::1], or a LAN address a dev server bound with
 * `--host` is opened by). A page that rebinds its own name to 127.0.0.1 still sends its own name.
 */
export function isLoopbackHostname(hostname: string): boolean {
  const name = hostname.toLowerCase();
  return name === 'localhost' || name.endsWith('.localhost') || /^\[[0-9a-f:.]+\]$/.test(name) || /^\d{1,3}(?:\.\d{1,3}){3}$/.test(name);
}
