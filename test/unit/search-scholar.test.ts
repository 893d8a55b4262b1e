import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidArgumentsError, ProviderResponseError } from '../../src/search/errors';
import { createArxivProvider } from '../../src/search/scholar/arxiv';
import { abstractFromInvertedIndex } from '../../src/search/scholar/inverted-index';
import { createOpenAlexProvider } from '../../src/search/scholar/openalex';
import { createPubMedProvider } from '../../src/search/scholar/pubmed';
import { createSearchApiScholarProvider, parsePublicationLine } from '../../src/search/scholar/searchapi-scholar';
import { startFixtureServer, type FixtureServer } from '../fixtures/http/fixture-server';

const ATOM = { 'content-type': 'application/atom+xml; charset=utf-8' };

let server: FixtureServer;
beforeAll(async () => {
  server = await startFixtureServer({
    'GET /api/query': { fixture: 'arxiv-query.xml', headers: ATOM },
    'GET /esearch.fcgi': { fixture: 'pubmed-esearch.json' },
    'GET /esummary.fcgi': { fixture: 'pubmed-esummary.json' },
    'GET /works': { fixture: 'openalex-works.json' },
    'GET /api/v1/search': { fixture: 'searchapi-google-scholar.json' },
  });
});
afterAll(() => server.close());

const requestsTo = (pathname: string) => server.requests.filter((request) => request.url.pathname === pathname);

describe('arXiv', () => {
  it('parses the Atom feed into normalised results', async () => {
    const results = await createArxivProvider({ baseUrl: server.baseUrl }).search('fact verification', { limit: 2 });
    expect(Object.fromEntries(requestsTo('/api/query').at(-1)?.url.searchParams ?? [])).toEqual({
      search_query: 'all:fact verification',
      start: '0',
      max_results: '2',
      sortBy: 'relevance',
    });
    expect(results[0]).toEqual({
      title: 'FEVER: a large-scale dataset for Fact Extraction and VERification',
      url: 'http://arxiv.org/abs/1803.05355v3',
      snippet: expect.stringMatching(/^In this paper we introduce .* Wikipedia & subsequently verified .*derived from\.$/),
      authors: ['James Thorne', 'Andreas Vlachos', 'Christos Christodoulopoulos', 'Arpit Mittal'],
      year: 2018,
      venue: 'NAACL-HLT 2018',
      source: 'arxiv',
      position: 1,
    });
    expect(results[1]).toMatchObject({ authors: ['Liangming Pan'], year: 2023, venue: 'arXiv', position: 2 });
  });

  it("turns arXiv's error entry into InvalidArgumentsError", async () => {
    server.route('GET /api/query', { status: 400, fixture: 'arxiv-error.xml', headers: ATOM });
    await expect(createArxivProvider({ baseUrl: server.baseUrl }).search('x', { limit: 1 })).rejects.toBeInstanceOf(InvalidArgumentsError);
    server.route('GET /api/query', { fixture: 'arxiv-error.xml', headers: ATOM });
    await expect(createArxivProvider({ baseUrl: server.baseUrl }).search('x', { limit: 1 })).rejects.toThrow('max_results must be non-negative');
    server.route('GET /api/query', { fixture: 'arxiv-query.xml', headers: ATOM });
  });
});

describe('PubMed', () => {
  it('runs esearch then esummary and keeps esummary order, skipping ids without a summary', async () => {
    const results = await createPubMedProvider({ baseUrl: server.baseUrl, tool: 'verity', email: 'dev@example.org', apiKey: 'ncbi-key' }).search('vitamin d covid-19', { limit: 3 });
    const esearch = requestsTo('/esearch.fcgi').at(-1)?.url.searchParams;
    expect(esearch?.get('db')).toBe('pubmed');
    expect(esearch?.get('term')).toBe('vitamin d covid-19');
    expect(esearch?.get('retmax')).toBe('3');
    expect(esearch?.get('retmode')).toBe('json');
    expect(requestsTo('/esummary.fcgi').at(-1)?.url.searchParams.get('id')).toBe('33301246,32511355,99999999');
    expect(results).toEqual([
      {
        title: 'Vitamin D deficiency aggravates COVID-19: systematic review and meta-analysis',
        url: 'https://pubmed.ncbi.nlm.nih.gov/33301246/',
        snippet: 'Nutrients, 2021 Jan',
        authors: ['Pereira M', 'Dantas Damascena A'],
        year: 2021,
        venue: 'Nutrients',
        source: 'pubmed',
        position: 1,
      },
      expect.objectContaining({ url: 'https://pubmed.ncbi.nlm.nih.gov/32511355/', year: 2020, venue: 'Aging clinical and experimental research', position: 2 }),
    ]);
  });

  it('does not call esummary when esearch finds nothing', async () => {
    server.route('GET /esearch.fcgi', { fixture: 'pubmed-esearch-empty.json' });
    const before = requestsTo('/esummary.fcgi').length;
    await expect(createPubMedProvider({ baseUrl: server.baseUrl }).search('qwxzv', { limit: 5 })).resolves.toEqual([]);
    expect(requestsTo('/esummary.fcgi').length).toBe(before);
    server.route('GET /esearch.fcgi', { fixture: 'pubmed-esearch.json' });
  });
});

describe('OpenAlex', () => {
  it('searches works and rebuilds abstracts from the inverted index', async () => {
    const results = await createOpenAlexProvider({ baseUrl: server.baseUrl, mailto: 'dev@example.org' }).search('fever fact verification', { limit: 2 });
    const params = requestsTo('/works').at(-1)?.url.searchParams;
    expect(params?.get('search')).toBe('fever fact verification');
    expect(params?.get('per-page')).toBe('2');
    expect(params?.get('mailto')).toBe('dev@example.org');
    expect(results[0]).toEqual({
      title: 'FEVER: a Large-scale Dataset for Fact Extraction and VERification',
      url: 'https://doi.org/10.18653/v1/n18-1074',
      snippet: 'In this paper we introduce a new dataset for verification FEVER: verification',
      authors: ['James Thorne', 'Andreas Vlachos'],
      year: 2018,
      venue: 'North American Chapter of the Association for Computational Linguistics',
      source: 'openalex',
      position: 1,
    });
    expect(results[1]).toEqual({ title: 'Claim verification with retrieval', url: 'https://openalex.org/W4385245566', snippet: '', authors: [], year: undefined, venue: undefined, source: 'openalex', position: 2 });
  });

  it('abstractFromInvertedIndex orders words by position', () => {
    expect(abstractFromInvertedIndex({ world: [1], hello: [0, 2] })).toBe('hello world hello');
    expect(abstractFromInvertedIndex(null)).toBe('');
  });

  it('rejects a response without results as ProviderResponseError', async () => {
    server.route('GET /works', { body: '{"error":"Invalid query parameters error.","message":"per-page is not a valid parameter"}' });
    await expect(createOpenAlexProvider({ baseUrl: server.baseUrl }).search('x', { limit: 1 })).rejects.toBeInstanceOf(ProviderResponseError);
    server.route('GET /works', { fixture: 'openalex-works.json' });
  });
});

describe('SearchAPI Google Scholar', () => {
  it('normalises organic results and skips citation-only entries', async () => {
    const results = await createSearchApiScholarProvider({ apiKey: 'sapi-key', baseUrl: server.baseUrl }).search('fact verification', { limit: 10 });
    const request = requestsTo('/api/v1/search').at(-1);
    expect(request?.url.searchParams.get('engine')).toBe('google_scholar');
    expect(request?.headers.authorization).toBe('Bearer sapi-key');
    expect(results).toHaveLength(2);
    expect(results[0]).toMatchObject({
      title: 'FEVER: a large-scale dataset for fact extraction and VERification',
      url: 'https://arxiv.org/abs/1803.05355',
      snippet: 'In this paper we introduce a new publicly available dataset for verification against textual sources, FEVER …',
      authors: ['J Thorne', 'A Vlachos'],
      year: 2018,
      venue: 'arXiv preprint arXiv …',
      source: 'searchapi-scholar',
      position: 1,
    });
    expect(results[1]).toMatchObject({ authors: ['P Nakov', 'D Corney', 'M Hasanain', 'F Alam'], year: 2021, venue: 'IJCAI', position: 2 });
  });

  it('parses publication lines with missing parts', () => {
    expect(parsePublicationLine('A Author - 2019')).toEqual({ authors: ['A Author'], venue: undefined });
    expect(parsePublicationLine(undefined)).toEqual({ authors: [], venue: undefined });
  });
});
