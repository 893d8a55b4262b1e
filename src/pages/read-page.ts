import { type IncomingMessage } from 'node:http';
import { AllowList } from './allow-list';
import { decodeBody, parseContentType, READABLE_CONTENT_TYPES } from './content-type';
import { BlockedUrlError, FetchTimeoutError, PageFetchError, UnsupportedContentTypeError } from './errors';
import { extractMainText } from './extract-text';
import { requestPinned } from './pinned-request';
import { readLimited } from './read-limited';
import { checkUrl, systemResolver, type Resolver, type UrlPolicy } from './url-guard';

export const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_MAX_REDIRECTS = 5;
const DEFAULT_USER_AGENT = 'verity-page-reader/0.1 (+claim verification research)';

export interface ReadPageOptions {
  maxBytes?: number;
  /** Total time for every hop, the download and extraction. */
  timeoutMs?: number;
  maxRedirects?: number;
  /** Hostnames, IPs or CIDRs that may be fetched although they are internal (tests, self-hosted services). */
  allowList?: readonly string[];
  resolve?: Resolver;
  userAgent?: string;
  signal?: AbortSignal;
}

export interface Page {
  /** URL after redirects. */
  url: string;
  title: string;
  text: string;
  contentType: string;
  bytes: number;
  fetchedAt: string;
}

/** Fetches a public web page safely (SSRF checks on every hop, size/time/type limits) and returns its main text. */
export async function readPage(url: string, options: ReadPageOptions = {}): Promise<Page> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  try {
    const policy: UrlPolicy = { resolve: options.resolve ?? systemResolver, allowList: new AllowList(options.allowList) };
    const headers = { 'user-agent': options.userAgent ?? DEFAULT_USER_AGENT, accept: 'text/html,application/xhtml+xml,text/plain;q=0.9' };
    const { response, finalUrl } = await followRedirects(parseUrl(url), policy, headers, signal, options.maxRedirects ?? DEFAULT_MAX_REDIRECTS);
    return await readResponse(response, finalUrl, options.maxBytes ?? DEFAULT_MAX_BYTES);
  } catch (err) {
    if (options.signal?.aborted) throw options.signal.reason;
    if (deadline.aborted) throw new FetchTimeoutError(url, timeoutMs);
    throw err;
  }
}

function parseUrl(url: string): URL {
  try {
    return new URL(url);
  } catch {
    throw new BlockedUrlError(url, 'not a valid absolute URL');
  }
}

/** Redirects are followed by hand so that every hop's target is checked and pinned like the first. */
async function followRedirects(
  start: URL,
  policy: UrlPolicy,
  headers: Record<string, string>,
  signal: AbortSignal,
  maxRedirects: number,
): Promise<{ response: IncomingMessage; finalUrl: URL }> {
  let current = start;
  for (let hop = 0; ; hop++) {
    const response = await requestPinned(await checkUrl(current, policy), headers, signal);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (status >= 300 && status < 400 && location) {
      response.destroy();
      if (hop >= maxRedirects) throw new PageFetchError(start.href, `more than ${maxRedirects} redirects`);
      current = new URL(location, current);
      continue;
    }
    if (status < 200 || status >= 300) {
      response.destroy();
      throw new PageFetchError(current.href, `HTTP ${status}`, status);
    }
    return { response, finalUrl: current };
  }
}

async function readResponse(response: IncomingMessage, url: URL, maxBytes: number): Promise<Page> {
  const contentType = parseContentType(response.headers['content-type']);
  if (!READABLE_CONTENT_TYPES.has(contentType.mediaType)) {
    response.destroy();
    throw new UnsupportedContentTypeError(url.href, contentType.mediaType || '(none)');
  }
  const body = await readLimited(response, url.href, maxBytes);
  const decoded = decodeBody(body, contentType.charset);
  const { title, text } = contentType.mediaType === 'text/plain' ? { title: '', text: decoded.trim() } : extractMainText(decoded);
  return { url: url.href, title, text, contentType: contentType.mediaType, bytes: body.length, fetchedAt: new Date().toISOString() };
}
