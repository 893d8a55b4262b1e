import net from 'node:net';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1']);

/** The host name of a `Host` header (`name`, `name:port`, `[v6]`, `[v6]:port`), lower-cased; undefined when malformed. */
function hostnameOf(header: string): string | undefined {
  const value = header.trim().toLowerCase();
  const bracketed = /^\[([0-9a-f:.]+)\](?::\d{1,5})?$/.exec(value);
  if (bracketed) return bracketed[1];
  const plain = /^([a-z0-9.-]+)(?::\d{1,5})?$/.exec(value);
  return plain?.[1]?.replace(/\.$/, '');
}

/**
 * Whether a request's `Host` header may reach the explorer. DNS rebinding sends a foreign name
 * that resolves to this machine, so only loopback names, the bound host and IP literals (which no
 * DNS answer can rebind) are accepted; a request without a `Host` header comes from no browser.
 */
export function isAllowedHost(header: string | undefined, boundHost: string): boolean {
  if (header === undefined) return true;
  const hostname = hostnameOf(header);
  if (hostname === undefined) return false;
  return LOOPBACK_NAMES.has(hostname) || hostname === boundHost.toLowerCase() || net.isIP(hostname) !== 0;
}

/** `host:port` for a URL (IPv6 addresses in brackets). */
export function urlHost(address: string, port: number): string {
  return net.isIPv6(address) ? `[${address}]:${port}` : `${address}:${port}`;
}
