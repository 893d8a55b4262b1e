import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebSearchProvider } from '../../../src/search/types';
import type { WikipediaProvider } from '../../../src/tools/wikipedia/page';
import { toMediaWikiSearchResponse, toSearchApiResponse } from './mermaid-api-shapes';

/** MERMAID's search_tool.py asks for `num=min(max_results, 10)`; MediaWiki's default srlimit is 10. */
const DEFAULT_RESULTS = 10;

export interface MermaidEvidenceServer {
  /** searchapi.io stand-in: `${url}/api/v1/search`; MediaWiki stand-in: `${url}/w/api.php`. */
  url: string;
  /** Requests received (`<engine>: <query>`), per tag: `currentTag` at the time of the request. */
  requests: Map<string, string[]>;
  currentTag: string;
  close(): Promise<void>;
}

/**
 * The APIs MERMAID's MCP tool servers call, answered from verity's own evidence: Google (searchapi.io
 * engine=google) by the recorded-web search verity's web_search uses, Wikipedia search by the wiki
 * provider verity's search_wikipedia uses. Google Scholar answers no results: verity's bench has no
 * offline scholar provider, so its executor is offered no scholar tool either.
 */
export async function startMermaidEvidenceServer(web: WebSearchProvider, wikipedia: WikipediaProvider): Promise<MermaidEvidenceServer> {
  const requests = new Map<string, string[]>();
  const record = (entry: string) => requests.set(state.currentTag, [...(requests.get(state.currentTag) ?? []), entry]);
  const answer = async (url: URL): Promise<[number, unknown]> => {
    const params = url.searchParams;
    const limit = Number(params.get('num') ?? params.get('srlimit') ?? DEFAULT_RESULTS) || DEFAULT_RESULTS;
    if (url.pathname === '/api/v1/search') {
      const engine = params.get('engine') ?? 'google';
      const query = params.get('q') ?? '';
      record(`${engine}: ${query}`);
      const results = engine === 'google' && query.trim() ? await web.search(query, { limit }) : [];
      return [200, toSearchApiResponse(engine, query, results)];
    }
    if (url.pathname === '/w/api.php' && params.get('list') === 'search') {
      const query = params.get('srsearch') ?? '';
      record(`wikipedia: ${query}`);
      const { hits, totalHits } = await wikipedia.search(query, limit);
      return [200, toMediaWikiSearchResponse(hits, totalHits)];
    }
    record(`unsupported: ${url.pathname}${url.search}`);
    return [404, { error: `not served offline: ${url.pathname}` }];
  };
  const server = http.createServer((req, res) => {
    answer(new URL(req.url ?? '/', 'http://loopback'))
      .then(([status, body]) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      })
      .catch((err: unknown) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: (err as Error).message }));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const state: MermaidEvidenceServer = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    currentTag: 'untagged',
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  return state;
}
