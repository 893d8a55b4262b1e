import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config';
import { createEsClient } from '../../src/es/client';
import { FACT_CHECK_DOMAINS } from '../../src/search/domain-filter';
import { createScholarProviders, createWebSearchProvider } from '../../src/search/provider-factory';
import { testConfig } from '../support/test-env';

const es = createEsClient({ url: 'http://127.0.0.1:9' });

describe('web search provider factory', () => {
  it('defaults to the offline recorded provider, excluding fact-checking sites', () => {
    const config = testConfig();
    expect(config.web.provider).toBe('recorded');
    expect(config.web.excludeDomains).toEqual(FACT_CHECK_DOMAINS);
    expect(createWebSearchProvider(config, { es }).name).toBe('recorded');
  });

  it.each([
    ['serper', { SERPER_API_KEY: 'k-serper' }],
    ['tavily', { TAVILY_API_KEY: 'k-tavily' }],
    ['brave', { BRAVE_API_KEY: 'k-brave' }],
    ['searxng', { SEARXNG_URL: 'http://127.0.0.1:8888' }],
    ['searchapi', { SEARCHAPI_API_KEY: 'k-searchapi' }],
  ])('builds %s from its key', (name, env) => {
    expect(createWebSearchProvider(testConfig({ VERITY_WEB_SEARCH_PROVIDER: name, ...env })).name).toBe(name);
  });

  it('a live provider without its key is a configuration error that names the variable, not a key', () => {
    expect(() => createWebSearchProvider(testConfig({ VERITY_WEB_SEARCH_PROVIDER: 'serper', SERPER_API_KEY: '' }))).toThrow(
      new ConfigError('VERITY_WEB_SEARCH_PROVIDER=serper needs SERPER_API_KEY'),
    );
    expect(() => createWebSearchProvider(testConfig())).toThrow(ConfigError);
  });

  it('parses domain lists; "none" clears the default exclusions', () => {
    const config = testConfig({ VERITY_WEB_INCLUDE_DOMAINS: 'Example.com, wikipedia.org', VERITY_WEB_EXCLUDE_DOMAINS: 'none' });
    expect(config.web).toMatchObject({ includeDomains: ['example.com', 'wikipedia.org'], excludeDomains: [] });
  });

  it('applies the domain filter to live providers too', async () => {
    const fetch = async () =>
      new Response(JSON.stringify({ organic: [{ title: 'a', link: 'https://www.snopes.com/x' }, { title: 'b', link: 'https://example.com/y' }] }), {
        headers: { 'content-type': 'application/json' },
      });
    const provider = createWebSearchProvider(testConfig({ VERITY_WEB_SEARCH_PROVIDER: 'serper', SERPER_API_KEY: 'k' }), { connection: { fetch } });
    expect((await provider.search('q', { limit: 5 })).map((r) => [r.url, r.position])).toEqual([['https://example.com/y', 1]]);
  });

  it('lists the scholarly providers, SearchAPI Scholar only with its key', () => {
    expect(createScholarProviders(testConfig()).map((p) => p.name)).toEqual(['arxiv', 'pubmed', 'openalex']);
    expect(createScholarProviders(testConfig({ SEARCHAPI_API_KEY: 'k' })).map((p) => p.name)).toContain('searchapi-scholar');
  });
});
