import { BlockList, isIP } from 'node:net';

/**
 * Hosts and networks the caller trusts although they would be blocked (tests, self-hosted services).
 * Entries are hostnames ("searx.internal"), IP addresses ("127.0.0.1") or CIDRs ("10.1.0.0/16").
 */
export class AllowList {
  private readonly hostnames = new Set<string>();
  private readonly networks = new BlockList();

  constructor(entries: readonly string[] = []) {
    for (const entry of entries) this.add(entry.trim().toLowerCase());
  }

  allowsHost(hostname: string): boolean {
    return this.hostnames.has(hostname.toLowerCase().replace(/\.$/, ''));
  }

  allowsAddress(address: string): boolean {
    const family = isIP(address);
    return family !== 0 && this.networks.check(address, family === 4 ? 'ipv4' : 'ipv6');
  }

  private add(entry: string): void {
    const [network, prefix] = entry.split('/');
    const family = isIP(network ?? '');
    if (network === undefined || family === 0) {
      if (prefix !== undefined) throw new TypeError(`invalid CIDR in allow-list: ${entry}`);
      this.hostnames.add(entry.replace(/\.$/, ''));
      return;
    }
    const type = family === 4 ? 'ipv4' : 'ipv6';
    const bits = prefix === undefined ? (family === 4 ? 32 : 128) : Number(prefix);
    if (!Number.isInteger(bits) || bits < 0 || bits > (family === 4 ? 32 : 128)) throw new TypeError(`invalid CIDR in allow-list: ${entry}`);
    this.networks.addSubnet(network, bits, type);
  }
}
