import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import type { ExplorerSource } from './explorer-data';
import { EXPLORER_MAX_PAGE, explorerFilterSchema } from './explorer-filter';
import { isAllowedHost, urlHost } from './allowed-host';
import { explorerHtml } from './explorer-page';
import { accessProblem, carriesToken, isDefaultLoopback, MIN_TOKEN_LENGTH, TOKEN_COOKIE, type ExplorerAccess } from './review-access';
import { ExplorerRequestError, listReviews, saveReview, type ExplorerReviews } from './review-routes';
import { withReviewPanel } from './review-panel';
import { randomBytes } from 'node:crypto';

export interface RunningExplorer {
  url: string;
  close(): Promise<void>;
}

const idSchema = z.string().min(1).max(1_000);
const pageSchema = z.object({ from: z.coerce.number().int().nonnegative().default(0), size: z.coerce.number().int().positive().max(EXPLORER_MAX_PAGE).default(50) });

/**
 * `verity view`: the explorer page and a small JSON API that pages Elasticsearch queries, on
 * 127.0.0.1 by default. Bad parameters and malformed requests answer 400 with one line, a `Host`
 * that is neither loopback nor the bound host 403 (DNS rebinding); nothing else is served. With
 * `reviews`, POST /api/review stores a human review; every write, and beyond the default loopback
 * address every read, needs the token (see accessProblem).
 */
export async function startExplorerServer(
  source: ExplorerSource,
  options: { port: number; host?: string; onError?: (err: unknown) => void; reviews?: ExplorerReviews; token?: string },
): Promise<RunningExplorer> {
  const boundHost = options.host ?? '127.0.0.1';
  const access = explorerAccess(boundHost, options.token);
  const page = options.reviews ? withReviewPanel(explorerHtml(), access.token) : explorerHtml();
  const server = http.createServer((request, response) => {
    const send = (status: number, body: string, type: string) => {
      response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      response.end(body);
    };
    if (!isAllowedHost(request.headers.host, boundHost)) return send(403, 'forbidden host (the explorer answers only to loopback names and the address it is bound to)', 'text/plain');
    const url = URL.parse(request.url ?? '/', 'http://explorer');
    if (!url) return send(400, 'bad request target', 'text/plain');
    const write = request.method === 'POST' && url.pathname === '/api/review' && options.reviews;
    if (request.method !== 'GET' && !write) return send(405, options.reviews ? 'only GET, and POST to /api/review' : 'only GET', 'text/plain');
    const refused = accessProblem(request, url, access);
    if (refused) return send(403, refused, 'text/plain');
    const params = Object.fromEntries(url.searchParams);
    const answer = async (): Promise<unknown> => {
      switch (url.pathname) {
        case '/api/summary':
          return source.summary();
        case '/api/claims':
          return source.claims(explorerFilterSchema.parse(params));
        case '/api/claim':
          return (await source.claim(idSchema.parse(params.workflowId))) ?? null;
        case '/api/compare':
          return source.compare(idSchema.parse(params.claimId));
        case '/api/charts':
          return source.charts ? source.charts(explorerFilterSchema.parse(params)) : undefined;
        case '/api/failures': {
          const { from, size } = pageSchema.parse(params);
          return source.failures(from, size);
        }
        case '/api/documents': {
          const { from, size } = pageSchema.parse(params);
          return source.documents(from, size);
        }
        case '/api/document':
          return (await source.document(z.object({ documentId: idSchema }).parse(params).documentId)) ?? null;
        case '/api/reviews':
          return options.reviews ? listReviews(options.reviews, params) : undefined;
        default:
          return undefined;
      }
    };
    if (url.pathname === '/' || url.pathname === '/index.html') {
      // Opened with ?token=: the page's own reads carry the token as a cookie from now on, and the
      // redirect takes the token out of the address bar (and of any Referer).
      if (url.searchParams.has('token') && carriesToken(request, url, access.token)) {
        response.writeHead(303, { location: '/', 'set-cookie': `${TOKEN_COOKIE}=${encodeURIComponent(access.token)}; HttpOnly; SameSite=Strict; Path=/`, 'cache-control': 'no-store' });
        return response.end();
      }
      response.setHeader('referrer-policy', 'no-referrer');
      return send(200, page, 'text/html; charset=utf-8');
    }
    (write ? saveReview(write, source, request) : answer()).then(
      (body) => (body === undefined ? send(404, 'not found', 'text/plain') : send(200, JSON.stringify(body), 'application/json')),
      (err: unknown) => {
        if (err instanceof ExplorerRequestError) return send(err.status, err.message, 'text/plain');
        if (err instanceof z.ZodError) return send(400, `bad parameters: ${err.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`, 'text/plain');
        options.onError?.(err);
        send(500, (err as Error).message.split('\n')[0] ?? 'error', 'text/plain');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, boundHost, resolve);
  });
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${urlHost(address, port)}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * The explorer's token: the one given (required beyond the default loopback address, where reads
 * need it too), else a random one that only the served page knows (it still guards every write).
 */
function explorerAccess(boundHost: string, token: string | undefined): ExplorerAccess {
  const tokenForReads = !isDefaultLoopback(boundHost);
  if (token !== undefined && token.length < MIN_TOKEN_LENGTH) throw new Error(`the explorer token has at least ${MIN_TOKEN_LENGTH} characters`);
  if (tokenForReads && token === undefined) throw new Error(`serving the explorer on ${boundHost} needs a token (--token or VERITY_VIEW_TOKEN)`);
  return { token: token ?? randomBytes(24).toString('base64url'), tokenForReads };
}
