import { rankResults } from './search-request';
import { type SearchProvider } from './types';

/** Fact-checking sites: their verdicts would leak the gold label of benchmark claims into the evidence. */
export const FACT_CHECK_DOMAINS: readonly string[] = [
  'snopes.com',
  'politifact.com',
  'factcheck.org',
  'fullfact.org',
  'africacheck.org',
  'checkyourfact.com',
  'leadstories.com',
  'healthfeedback.org',
  'climatefeedback.org',
  'sciencefeedback.co',
  'truthorfiction.com',
  'factcheck.afp.com',
  'polygraph.info',
  'boomlive.in',
  'altnews.in',
  'factly.in',
  'vishvasnews.com',
  'maldita.es',
  'newtral.es',
  'correctiv.org',
  'demagog.org.pl',
  'aap.com.au',
  'misbar.com',
  'teyit.org',
];

export interface DomainFilter {
  /** When non-empty, only results on these domains (or their subdomains) are kept. */
  include?: readonly string[];
  /** Results on these domains (or their subdomains) are dropped. */
  exclude?: readonly string[];
}

/** True when `hostname` is `domain` or one of its subdomains (news.example.com matches example.com). */
export function hostMatchesDomain(hostname: string, domain: string): boolean {
  const host = normaliseHost(hostname);
  const target = normaliseHost(domain);
  return host === target || host.endsWith(`.${target}`);
}

/** Drops results outside `include` or inside `exclude` and renumbers the survivors 1..n. */
export function filterByDomain<R extends { url: string; position: number }>(results: readonly R[], filter: DomainFilter): R[] {
  return rankResults<R>(results.filter((result) => isAllowedUrl(result.url, filter)));
}

/** A provider whose results always pass through `filter`. */
export function withDomainFilter<R extends { url: string; position: number }>(provider: SearchProvider<R>, filter: DomainFilter): SearchProvider<R> {
  return {
    name: provider.name,
    search: async (query, options) => filterByDomain(await provider.search(query, options), filter),
  };
}

function isAllowedUrl(url: string, filter: DomainFilter): boolean {
  const hostname = hostnameOf(url);
  if (hostname === undefined) return false;
  const matches = (domain: string) => hostMatchesDomain(hostname, domain);
  if (filter.include !== undefined && filter.include.length > 0 && !filter.include.some(matches)) return false;
  return !(filter.exclude ?? []).some(matches);
}

function hostnameOf(url: string): string | undefined {
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}

export function normaliseHost(host: string): string {
  return host.trim().toLowerCase().replace(/\.$/, '');
}
