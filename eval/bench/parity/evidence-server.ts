import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebSearchProvider } from '../../../src/search/types';
import { serperRequestSchema, toSerperResponse } from './serper-shape';

/** Serper's default page of organic results (the released code sends only `q`). */
const SERPER_DEFAULT_RESULTS = 10;

export interface EvidenceServer {
  url: string;
  /** Queries received, per x-parity-tag. */
  searches: Map<string, string[]>;
  close(): Promise<void>;
}

/** EMULATE POSTs a JSON body; FIRE (requests.post(..., params=...)) puts q, num … in the query string, as strings. */
export function serperRequestOf(url: string, body: string): unknown {
  if (body.trim() !== '') return JSON.parse(body);
  const params = Object.fromEntries(new URL(url, 'http://loopback').searchParams);
  return { ...params, ...(params.num !== undefined ? { num: Number(params.num) } : {}) };
}

/** A loopback server shaped like google.serper.dev/search, answered by verity's own recorded-web search. */
export async function startEvidenceServer(provider: WebSearchProvider): Promise<EvidenceServer> {
  const searches = new Map<string, string[]>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const { q, num } = serperRequestSchema.parse(serperRequestOf(req.url ?? '/', Buffer.concat(chunks).toString('utf8')));
        const tag = (req.headers['x-parity-tag'] as string | undefined) ?? 'untagged';
        searches.set(tag, [...(searches.get(tag) ?? []), q]);
        const results = await provider.search(q, { limit: num ?? SERPER_DEFAULT_RESULTS });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(toSerperResponse(q, results)));
      })().catch((err: unknown) => {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: (err as Error).message }));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    searches,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
