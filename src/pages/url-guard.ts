import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { type AllowList } from './allow-list';
import { isBlockedAddress } from './blocked-addresses';
import { BlockedUrlError, PageFetchError } from './errors';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a hostname to every address it has; injectable so tests can simulate any DNS answer. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) => {
  const addresses = await lookup(hostname, { all: true, verbatim: true });
  return addresses.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

/** Cloud metadata services reachable by name (their addresses are blocked as link-local anyway). */
export const METADATA_HOSTNAMES: readonly string[] = ['metadata.google.internal', 'metadata.goog', 'metadata', 'instance-data', 'instance-data.ec2.internal'];

/** A URL that passed the checks, with the one address the connection must use. */
export interface PinnedTarget extends ResolvedAddress {
  url: URL;
  hostname: string;
}

export interface UrlPolicy {
  resolve: Resolver;
  allowList: AllowList;
}

/**
 * Rejects non-http(s) URLs and hosts that are, or resolve to, a blocked address (any one of its
 * addresses suffices). WHATWG URL parsing has already turned decimal, hex and octal IPv4 forms
 * (http://2130706433/, http://0x7f.1/) into dotted quads.
 */
export async function checkUrl(url: URL, policy: UrlPolicy): Promise<PinnedTarget> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BlockedUrlError(url.href, `scheme ${url.protocol} is not allowed`);
  const hostname = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  const hostAllowed = policy.allowList.allowsHost(hostname);
  if (!hostAllowed && METADATA_HOSTNAMES.includes(hostname)) throw new BlockedUrlError(url.href, `${hostname} is a metadata service`);
  const addresses = await addressesOf(hostname, policy.resolve, url);
  for (const { address } of addresses) {
    if (!hostAllowed && isBlockedAddress(address) && !policy.allowList.allowsAddress(address)) {
      throw new BlockedUrlError(url.href, address === hostname ? `${address} is an internal address` : `${hostname} resolves to internal address ${address}`);
    }
  }
  const [pinned] = addresses as [ResolvedAddress];
  return { url, hostname, ...pinned };
}

async function addressesOf(hostname: string, resolve: Resolver, url: URL): Promise<ResolvedAddress[]> {
  const family = isIP(hostname);
  if (family !== 0) return [{ address: hostname, family: family === 6 ? 6 : 4 }];
  let addresses: ResolvedAddress[];
  try {
    addresses = await resolve(hostname);
  } catch (err) {
    throw new PageFetchError(url.href, `DNS lookup of ${hostname} failed (${(err as Error).message})`);
  }
  if (addresses.length === 0) throw new PageFetchError(url.href, `DNS lookup of ${hostname} returned no address`);
  return addresses;
}
