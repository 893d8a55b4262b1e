import { describe, expect, it } from 'vitest';
import { AllowList } from '../../src/pages/allow-list';
import { isBlockedAddress } from '../../src/pages/blocked-addresses';
import { BlockedUrlError } from '../../src/pages/errors';
import { readPage } from '../../src/pages/read-page';
import { checkUrl, type ResolvedAddress, type Resolver } from '../../src/pages/url-guard';

/** Simulated DNS: public-looking names that answer with internal addresses. */
const DNS: Record<string, string[]> = {
  'localhost': ['127.0.0.1', '::1'],
  'news.example-public.com': ['127.0.0.1'],
  'mixed.example-public.com': ['93.184.216.34', '10.0.0.5'],
  'ula.example-public.com': ['fd12:3456::1'],
  'mapped.example-public.com': ['::ffff:192.168.0.1'],
  'metadata-alias.example-public.com': ['169.254.169.254'],
  'www.example.org': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
};

const fakeResolver: Resolver = async (hostname) => {
  const addresses = DNS[hostname];
  if (!addresses) throw new Error(`ENOTFOUND ${hostname}`);
  return addresses.map((address): ResolvedAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
};

const BLOCKED_URLS = [
  // schemes
  'file:///etc/passwd',
  'ftp://example.org/file.txt',
  'gopher://example.org:70/_GET',
  'data:text/html,<p>hi</p>',
  'javascript:alert(1)',
  // IPv4 ranges
  'http://127.0.0.1/',
  'http://127.255.255.254:8080/admin',
  'http://10.0.0.1/',
  'http://172.16.0.1/',
  'http://172.31.255.255/',
  'http://192.168.1.1/',
  'http://169.254.169.254/latest/meta-data/',
  'http://169.254.0.1/',
  'http://100.64.0.1/',
  'http://100.127.255.254/',
  'http://0.0.0.0/',
  'http://0/',
  'http://224.0.0.1/',
  'http://255.255.255.255/',
  // other IPv4 notations, normalised by URL parsing
  'http://2130706433/',
  'http://0x7f.1/',
  'http://0x7f000001/',
  'http://0177.0.0.1/',
  'http://127.1/',
  'http://017700000001/',
  'http://0xa9.0xfe.0xa9.0xfe/',
  // IPv6
  'http://[::1]/',
  'http://[::]/',
  'http://[fc00::1]/',
  'http://[fd00::1]/',
  'http://[fe80::1]/',
  'http://[ff02::1]/',
  'http://[::ffff:127.0.0.1]/',
  'http://[::ffff:7f00:1]/',
  'http://[::ffff:169.254.169.254]/',
  'http://[::ffff:10.0.0.1]/',
  'http://[0:0:0:0:0:ffff:c0a8:101]/',
  // IPv6 forms that embed an internal IPv4 address: compatible, NAT64, 6to4, SIIT, Teredo
  'http://[::127.0.0.1]/',
  'http://[64:ff9b::7f00:1]/',
  'http://[64:ff9b::169.254.169.254]/',
  'http://[2002:7f00:1::]/',
  'http://[2002:a9fe:a9fe::1]/',
  'http://[::ffff:0:7f00:1]/',
  'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/',
  // metadata hostnames
  'http://metadata.google.internal/computeMetadata/v1/',
  'http://METADATA.GOOGLE.INTERNAL./computeMetadata/v1/',
  'http://metadata/',
  // names that resolve to internal addresses
  'http://localhost:3000/',
  'http://news.example-public.com/story',
  'https://mixed.example-public.com/',
  'http://ula.example-public.com/',
  'http://mapped.example-public.com/',
  'http://metadata-alias.example-public.com/latest/meta-data/',
];

describe('SSRF guard', () => {
  it.each(BLOCKED_URLS)('blocks %s before connecting', async (url) => {
    await expect(readPage(url, { resolve: fakeResolver, timeoutMs: 2_000 })).rejects.toBeInstanceOf(BlockedUrlError);
  });

  it('explains why a resolved name is blocked', async () => {
    await expect(readPage('http://news.example-public.com/story', { resolve: fakeResolver })).rejects.toThrow('news.example-public.com resolves to internal address 127.0.0.1');
  });

  it('passes public addresses and pins the first resolved address', async () => {
    const target = await checkUrl(new URL('https://www.example.org/page'), { resolve: fakeResolver, allowList: new AllowList() });
    expect(target).toMatchObject({ hostname: 'www.example.org', address: '93.184.216.34', family: 4 });
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '100.128.0.1', '169.255.0.1', '2606:4700::1111', '2001:4860:4860::8888'])('%s is public', (address) => {
    expect(isBlockedAddress(address)).toBe(false);
  });

  it('the allow-list admits listed hosts, addresses and CIDRs only', async () => {
    const policy = (entries: string[]) => ({ resolve: fakeResolver, allowList: new AllowList(entries) });
    await expect(checkUrl(new URL('http://127.0.0.1:8080/'), policy(['127.0.0.1']))).resolves.toMatchObject({ address: '127.0.0.1' });
    await expect(checkUrl(new URL('http://10.1.2.3/'), policy(['10.1.0.0/16']))).resolves.toMatchObject({ address: '10.1.2.3' });
    await expect(checkUrl(new URL('http://10.2.0.1/'), policy(['10.1.0.0/16']))).rejects.toBeInstanceOf(BlockedUrlError);
    await expect(checkUrl(new URL('http://news.example-public.com/'), policy(['news.example-public.com']))).resolves.toMatchObject({ address: '127.0.0.1' });
    await expect(checkUrl(new URL('http://169.254.169.254/'), policy(['127.0.0.1']))).rejects.toBeInstanceOf(BlockedUrlError);
    expect(() => new AllowList(['10.0.0.0/33'])).toThrow(TypeError);
  });
});
