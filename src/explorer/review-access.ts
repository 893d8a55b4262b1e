import { timingSafeEqual } from 'node:crypto';
import type http from 'node:http';

/** The header every write must carry (a cross-site form or `fetch` cannot set it without a CORS preflight, which the explorer never grants). */
export const TOKEN_HEADER = 'x-verity-token';
/** Set when a page is opened with `?token=`, so the page's own reads carry the token beyond loopback. */
export const TOKEN_COOKIE = 'verity_token';
export const MIN_TOKEN_LENGTH = 16;

/** Who may read and write: the token, and whether reads need it too (served beyond the default loopback address). */
export interface ExplorerAccess {
  token: string;
  tokenForReads: boolean;
}

/**
 * Whether `verity view` binds the default loopback address. Any other address, 127.0.0.2 included,
 * counts as served to others: reads then need the token as well (the tests bind 127.0.0.2 to stand in
 * for a shared address).
 */
export function isDefaultLoopback(host: string): boolean {
  return ['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host.trim().toLowerCase());
}

function sameToken(given: string | undefined, token: string): boolean {
  if (given === undefined) return false;
  const [a, b] = [Buffer.from(given), Buffer.from(token)];
  return a.length === b.length && timingSafeEqual(a, b);
}

function cookieToken(header: string | undefined): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === TOKEN_COOKIE) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Whether the token arrived with the request (header, the page's cookie, or `?token=` on the page itself). */
export function carriesToken(request: http.IncomingMessage, url: URL, token: string): boolean {
  return sameToken(headerValue(request.headers[TOKEN_HEADER]), token) || sameToken(cookieToken(request.headers.cookie), token) || sameToken(url.searchParams.get('token') ?? undefined, token);
}

/**
 * Why a request is refused (403), or undefined. A write needs the token in TOKEN_HEADER, never from the
 * cookie a browser attaches by itself (that is the CSRF protection), and an `Origin`, when sent, of this
 * very host. Reads need the token only beyond the default loopback address.
 */
export function accessProblem(request: http.IncomingMessage, url: URL, access: ExplorerAccess): string | undefined {
  if (request.method === 'POST') {
    if (!sameToken(headerValue(request.headers[TOKEN_HEADER]), access.token)) return `a write needs the explorer's token in the ${TOKEN_HEADER} header`;
    const origin = headerValue(request.headers.origin);
    if (origin !== undefined && URL.parse(origin)?.host !== request.headers.host) return 'a write from another origin';
    return undefined;
  }
  if (access.tokenForReads && !carriesToken(request, url, access.token)) return 'this explorer is served beyond loopback: open it with ?token=<token> (or send the x-verity-token header)';
  return undefined;
}
