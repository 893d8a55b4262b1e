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

/**
 * True for addresses in a blocked range. An IPv6 address that embeds an IPv4 address (mapped
 * ::ffff:a.b.c.d, SIIT ::ffff:0:a.b.c.d, compatible ::a.b.c.d, NAT64 64:ff9b::/96 and 64:ff9b:1::/48,
 * 6to4 2002::/16, Teredo 2001::/32) is blocked when that IPv4 address is.
 */
export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) throw new TypeError(`not an IP address: ${address}`);
  if (family === 4) return blockList.check(address, 'ipv4');
  return blockList.check(address, 'ipv6') || embeddedIpv4(address).some((ipv4) => blockList.check(ipv4, 'ipv4'));
}

/** The IPv4 addresses an IPv6 address may stand for (see isBlockedAddress). */
export function embeddedIpv4(address: string): string[] {
  const groups = ipv6Groups(address);
  const v4 = (high: number, low: number) => [high >> 8, high & 255, low >> 8, low & 255].join('.');
  const zero = (from: number, to: number) => groups.slice(from, to).every((group) => group === 0);
  const found: string[] = [];
  const [g0, g1, g2, , g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  if (zero(0, 5) && (g5 === 0xffff || g5 === 0)) found.push(v4(g6, g7)); // mapped, compatible
  if (zero(0, 4) && g4 === 0xffff && g5 === 0) found.push(v4(g6, g7)); // SIIT
  if (g0 === 0x64 && g1 === 0xff9b) found.push(v4(g6, g7)); // NAT64, well-known and local-use
  if (g0 === 0x2002) found.push(v4(g1, g2)); // 6to4
  if (g0 === 0x2001 && g1 === 0) found.push(v4(~g6 & 0xffff, ~g7 & 0xffff)); // Teredo client
  return found;
}

/** The eight 16-bit groups of an IPv6 address (with '::' expanded and a dotted IPv4 tail converted). */
function ipv6Groups(address: string): number[] {
  let text = address.replace(/^\[|\]$/g, '').split('%')[0]!;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  return tail === undefined ? left : [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}
