import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBraveProvider } from '../../src/search/brave';
import { createSearchApiProvider } from '../../src/search/searchapi';
import { createSearxngProvider } from '../../src/search/searxng';
import { createSerperProvider } from '../../src/search/serper';
import { createTavilyProvider } from '../../src/search/tavily';
import { type WebSearchProvider } from '../../src/search/types';
import { startFixtureServer, type FixtureServer } from '../fixtures/http/fixture-server';

const KEY = 'test-key-7f3a9c';
const QUERY = 'eiffel tower height 330 metres';

let server: FixtureServer;

beforeAll(async () => {
  server = await startFixtureServer({
    'POST /search': { fixture: 'serper-search.json' },
    'POST /tavily/search': { fixture: 'tavily-search.json' },
    'GET /res/v1/web/search': { fixture: 'brave-web-search.json' },
    'GET /searx/search': { fixture: 'searxng-search.json' },
    'GET /api/v1/search': { fixture: 'searchapi-google.json' },
  });
});
afterAll(() => server.close());

function lastRequest() {
  const request = server.requests.at(-1);
  if (!request) throw new Error('no request recorded');
  return request;
}

describe('web search providers against recorded responses', () => {
  const cases: { name: string; create: () => WebSearchProvider; expectedUrls: string[]; checkRequest: () => void }[] = [
    {
      name: 'serper',
      create: () => createSerperProvider({ apiKey: KEY, baseUrl: server.baseUrl }),
      expectedUrls: ['https://en.wikipedia.org/wiki/Eiffel_Tower', 'https://www.toureiffel.paris/en/the-monument/key-figures', 'https://www.snopes.com/fact-check/eiffel-tower-grew/', 'https://www.britannica.com/topic/Eiffel-Tower-Paris-France'],
      checkRequest: () => {
        const request = lastRequest();
        expect(request.method).toBe('POST');
        expect(request.headers['x-api-key']).toBe(KEY);
        expect(JSON.parse(request.body)).toEqual({ q: QUERY, num: 10 });
      },
    },
    {
      name: 'tavily',
      create: () => createTavilyProvider({ apiKey: KEY, baseUrl: `${server.baseUrl}/tavily` }),
      expectedUrls: ['https://en.wikipedia.org/wiki/Eiffel_Tower', 'https://www.politifact.com/factchecks/2022/mar/18/viral-image/eiffel-tower-height/', 'https://www.toureiffel.paris/en/the-monument/key-figures'],
      checkRequest: () => {
        const request = lastRequest();
        expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
        expect(JSON.parse(request.body)).toMatchObject({ query: QUERY, max_results: 10 });
      },
    },
    {
      name: 'brave',
      create: () => createBraveProvider({ apiKey: KEY, baseUrl: server.baseUrl }),
      expectedUrls: ['https://en.wikipedia.org/wiki/Eiffel_Tower', 'https://www.toureiffel.paris/en/the-monument/key-figures'],
      checkRequest: () => {
        const request = lastRequest();
        expect(request.headers['x-subscription-token']).toBe(KEY);
        expect(Object.fromEntries(request.url.searchParams)).toEqual({ q: QUERY, count: '10' });
      },
    },
    {
      name: 'searxng',
      create: () => createSearxngProvider({ baseUrl: `${server.baseUrl}/searx/` }),
      expectedUrls: ['https://en.wikipedia.org/wiki/Eiffel_Tower', 'https://www.fullfact.org/online/eiffel-tower-height/', 'https://www.britannica.com/topic/Eiffel-Tower-Paris-France'],
      checkRequest: () => expect(Object.fromEntries(lastRequest().url.searchParams)).toEqual({ q: QUERY, format: 'json', pageno: '1' }),
    },
    {
      name: 'searchapi',
      create: () => createSearchApiProvider({ apiKey: KEY, baseUrl: server.baseUrl }),
      expectedUrls: ['https://en.wikipedia.org/wiki/Eiffel_Tower', 'https://blog.factcheck.org/2022/03/eiffel-tower-height/', 'https://www.toureiffel.paris/en/the-monument/key-figures'],
      checkRequest: () => {
        const request = lastRequest();
        expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
        expect(Object.fromEntries(request.url.searchParams)).toEqual({ engine: 'google', q: QUERY, num: '10' });
        expect(request.url.search).not.toContain(KEY);
      },
    },
  ];

  for (const { name, create, expectedUrls, checkRequest } of cases) {
    it(`${name}: sends the documented request and normalises the results`, async () => {
      const results = await create().search(`  ${QUERY} `, { limit: 10 });
      checkRequest();
      expect(results.map((result) => result.url)).toEqual(expectedUrls);
      results.forEach((result, index) => {
        expect(result.position).toBe(index + 1);
        expect(result.source).toBe(name);
        expect(result.title).not.toBe('');
        expect(result.snippet).not.toMatch(/<\/?[a-z]+>|&amp;/);
      });
    });
  }

  it('cuts results to the limit and caps the provider page size', async () => {
    const results = await createSerperProvider({ apiKey: KEY, baseUrl: server.baseUrl }).search(QUERY, { limit: 2 });
    expect(results.map((result) => result.position)).toEqual([1, 2]);
    expect(JSON.parse(lastRequest().body)).toEqual({ q: QUERY, num: 2 });

    await createBraveProvider({ apiKey: KEY, baseUrl: server.baseUrl }).search(QUERY, { limit: 50 });
    expect(lastRequest().url.searchParams.get('count')).toBe('20');
  });

  it('strips highlight tags and entities from snippets', async () => {
    const [first] = await createBraveProvider({ apiKey: KEY, baseUrl: server.baseUrl }).search(QUERY, { limit: 1 });
    expect(first?.snippet).toBe('The tower is 330 metres (1,083 ft) tall, about the same height as an 81-storey building.');
  });

  it('brave: a response without a web section means no results', async () => {
    server.route('GET /res/v1/web/search', { fixture: 'brave-no-web.json' });
    await expect(createBraveProvider({ apiKey: KEY, baseUrl: server.baseUrl }).search('qwxzv no results', { limit: 5 })).resolves.toEqual([]);
    server.route('GET /res/v1/web/search', { fixture: 'brave-web-search.json' });
  });
});
