import { afterEach, describe, expect, it } from 'vitest';
import { toMediaWikiSearchResponse, toSearchApiResponse } from '../../eval/bench/parity/mermaid-api-shapes';
import { mermaidReferenceLabel, parseMermaidDriverRow } from '../../eval/bench/parity/mermaid-driver-row';
import { startMermaidEvidenceServer, type MermaidEvidenceServer } from '../../eval/bench/parity/mermaid-evidence-server';
import type { WebSearchProvider } from '../../src/search/types';
import type { WikipediaProvider } from '../../src/tools/wikipedia/page';

const webResult = { title: 'Eiffel Tower', url: 'https://www.toureiffel.paris/en/the-monument', snippet: 'Completed in 1889.' };
const web = { search: (query: string, options: { limit: number }) => Promise.resolve(query === 'eiffel' ? [webResult].slice(0, options.limit) : []) } as unknown as WebSearchProvider;
const wikipedia = {
  search: (query: string, limit: number) =>
    Promise.resolve({ hits: [{ title: 'Eiffel Tower', snippet: 'The <span class="searchmatch">Eiffel</span> Tower', pageid: 'Eiffel_Tower' }].slice(0, limit), totalHits: query ? 1 : 0 }),
} as unknown as WikipediaProvider;

describe('MERMAID parity: the API shapes its tool servers read', () => {
  it('searchapi.io: organic_results ranked from 1 with the host as source, no answer box', () => {
    const response = toSearchApiResponse('google', 'eiffel', [webResult]);
    expect(response.organic_results).toEqual([{ position: 1, title: 'Eiffel Tower', link: webResult.url, source: 'www.toureiffel.paris', snippet: 'Completed in 1889.' }]);
    expect(response).not.toHaveProperty('answer_box');
  });

  it('MediaWiki list=search: query.search with the fields wikipedia_tool.py copies (wordcount and timestamp defaulted)', () => {
    const response = toMediaWikiSearchResponse([{ title: 'A', snippet: 's', pageid: 3 }], 7);
    expect(response.query).toEqual({ searchinfo: { totalhits: 7 }, search: [{ ns: 0, title: 'A', pageid: 3, wordcount: 0, snippet: 's', timestamp: '' }] });
  });

  it('scores the driver row as the released calculate_metrics does, and keeps a crash visible', () => {
    expect(mermaidReferenceLabel(parseMermaidDriverRow('{"id":"a","answer":"True","label":true}\n'))).toBe('SUPPORTED');
    expect(mermaidReferenceLabel(parseMermaidDriverRow('{"id":"a","answer":"SUPPORTED","label":false}'))).toBe('REFUTED');
    expect(mermaidReferenceLabel(parseMermaidDriverRow('{"id":"a","label":true}\n{"id":"b","error":"RateLimitError()"}'))).toBe('error: RateLimitError()');
    expect(() => parseMermaidDriverRow('\n')).toThrow(/no result/);
  });
});

describe('MERMAID parity evidence server (loopback HTTP)', () => {
  let server: MermaidEvidenceServer | undefined;
  afterEach(async () => server?.close());

  it('answers Google from the web provider, Scholar with nothing, Wikipedia search from the wiki provider, and records each under the current tag', async () => {
    server = await startMermaidEvidenceServer(web, wikipedia);
    server.currentTag = 'ref:c1';
    const google = (await (await fetch(`${server.url}/api/v1/search?engine=google&q=eiffel&num=10&api_key=x`)).json()) as { organic_results: unknown[] };
    expect(google.organic_results).toHaveLength(1);
    const scholar = (await (await fetch(`${server.url}/api/v1/search?engine=google_scholar&q=eiffel`)).json()) as { organic_results: unknown[] };
    expect(scholar.organic_results).toEqual([]);
    const wiki = (await (await fetch(`${server.url}/w/api.php?action=query&format=json&list=search&srsearch=eiffel&srlimit=10`)).json()) as { query: { search: Array<{ title: string }> } };
    expect(wiki.query.search.map((hit) => hit.title)).toEqual(['Eiffel Tower']);
    const other = await fetch(`${server.url}/w/api.php?action=parse&page=X`);
    expect(other.status).toBe(404);
    expect(server.requests.get('ref:c1')).toEqual(['google: eiffel', 'google_scholar: eiffel', 'wikipedia: eiffel', 'unsupported: /w/api.php?action=parse&page=X']);
  });
});
