import { BlockList, isIP } from 'node:net';

/** Address ranges a server-side fetch must never reach: loopback, private, link-local, metadata, reserved. */
const BLOCKED_SUBNETS: readonly [string, number, 'ipv4' | 'ipv6'][] = [
  ['0.0.0.0', 8, 'ipv4'], // "this network", incl. the unspecified 0.0.0.0
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'], // CGNAT
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'], // link-local, incl. the 169.254.169.254 metadata service
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'], // IETF protocol assignments
  ['192.0.2.0', 24, 'ipv4'], // documentation
  ['192.168.0.0', 16, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'], // benchmarking
  ['198.51.100.0', 24, 'ipv4'], // documentation
  ['203.0.113.0', 24, 'ipv4'], // documentation
  ['224.0.0.0', 4, 'ipv4'], // multicast
  ['240.0.0.0', 4, 'ipv4'], // reserved, incl. broadcast
  ['::', 128, 'ipv6'], // unspecified
  ['::1', 128, 'ipv6'],
  ['fc00::', 7, 'ipv6'], // unique local
  ['fe80::', 10, 'ipv6'], // link-local
  ['ff00::', 8, 'ipv6'], // multicast
  ['2001:db8::', 32, 'ipv6'], // documentation
];

const blockList = new BlockList();
for (const [network, prefix, family] of BLOCKED_SUBNETS) blockList.addSubnet(network, prefix, family);

/** True for addresses in a blocked range; IPv4-mapped IPv6 (::ffff:a.b.c.d) is judged by its IPv4 address. */
export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) throw new TypeError(`not an IP address: ${address}`);
  return blockList.check(address, family === 4 ? 'ipv4' : 'ipv6');
}
