import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FACT_CHECK_DOMAINS, filterByDomain, hostMatchesDomain, withDomainFilter } from '../../src/search/domain-filter';
import { createSearchApiProvider } from '../../src/search/searchapi';
import { createSerperProvider } from '../../src/search/serper';
import { type WebResult } from '../../src/search/types';
import { startFixtureServer, type FixtureServer } from '../fixtures/http/fixture-server';

const result = (url: string, position: number): WebResult => ({ title: url, url, snippet: '', source: 'test', position });

let server: FixtureServer;
beforeAll(async () => {
  server = await startFixtureServer({ 'POST /search': { fixture: 'serper-search.json' }, 'GET /api/v1/search': { fixture: 'searchapi-google.json' } });
});
afterAll(() => server.close());

describe('domain filter', () => {
  it('matches a domain and its subdomains only', () => {
    expect(hostMatchesDomain('snopes.com', 'snopes.com')).toBe(true);
    expect(hostMatchesDomain('www.Snopes.com.', 'snopes.com')).toBe(true);
    expect(hostMatchesDomain('notsnopes.com', 'snopes.com')).toBe(false);
    expect(hostMatchesDomain('snopes.com.evil.org', 'snopes.com')).toBe(false);
  });

  it('excludes and renumbers positions', () => {
    const filtered = filterByDomain([result('https://a.org/1', 1), result('https://www.snopes.com/x', 2), result('https://b.org/2', 3)], { exclude: FACT_CHECK_DOMAINS });
    expect(filtered.map((r) => [r.url, r.position])).toEqual([
      ['https://a.org/1', 1],
      ['https://b.org/2', 2],
    ]);
  });

  it('include keeps only the listed domains; exclude wins over include', () => {
    const results = [result('https://en.wikipedia.org/wiki/X', 1), result('https://example.com/', 2), result('https://de.wikipedia.org/wiki/Y', 3)];
    expect(filterByDomain(results, { include: ['wikipedia.org'] }).map((r) => r.url)).toEqual(['https://en.wikipedia.org/wiki/X', 'https://de.wikipedia.org/wiki/Y']);
    expect(filterByDomain(results, { include: ['wikipedia.org'], exclude: ['de.wikipedia.org'] }).map((r) => r.position)).toEqual([1]);
    expect(filterByDomain([result('not a url', 1)], {})).toEqual([]);
  });

  it('ships the well-known fact-checking sites as a leakage guard', () => {
    expect(FACT_CHECK_DOMAINS).toEqual(expect.arrayContaining(['snopes.com', 'politifact.com', 'factcheck.org', 'fullfact.org']));
  });

  it('wraps a provider: fact-check results from Serper and SearchAPI are dropped after normalisation', async () => {
    const serper = withDomainFilter(createSerperProvider({ apiKey: 'k', baseUrl: server.baseUrl }), { exclude: FACT_CHECK_DOMAINS });
    const serperResults = await serper.search('eiffel tower', { limit: 10 });
    expect(serper.name).toBe('serper');
    expect(serperResults.map((r) => r.url)).not.toContain('https://www.snopes.com/fact-check/eiffel-tower-grew/');
    expect(serperResults.map((r) => r.position)).toEqual([1, 2, 3]);

    const searchApi = withDomainFilter(createSearchApiProvider({ apiKey: 'k', baseUrl: server.baseUrl }), { exclude: FACT_CHECK_DOMAINS });
    const searchApiResults = await searchApi.search('eiffel tower', { limit: 10 });
    expect(searchApiResults.map((r) => new URL(r.url).hostname)).toEqual(['en.wikipedia.org', 'www.toureiffel.paris']);
  });
});
