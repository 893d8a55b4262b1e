import { type z } from 'zod';
import { AuthError, InvalidArgumentsError, ProviderResponseError, ProviderUnavailableError, RateLimitedError, SearchError } from './errors';
import { parseRetryAfter } from './retry-after';
import { type ProviderConnection } from './types';
import { redactSecretValues } from '../config/redact-url';

export const DEFAULT_PROVIDER_TIMEOUT_MS = 15_000;
const BODY_EXCERPT_CHARS = 200;

export interface ProviderRequest {
  provider: string;
  url: URL;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
  signal?: AbortSignal;
  connection: ProviderConnection;
  /** Values (API keys) that must never appear in an error message. */
  secrets: readonly string[];
}

/** Builds the endpoint URL from the provider's default base or the configured override. */
export function endpointUrl(connection: ProviderConnection, defaultBase: string, path: string): URL {
  const base = (connection.baseUrl ?? defaultBase).replace(/\/+$/, '');
  return new URL(`${base}${path}`);
}

export async function fetchProviderJson<T>(request: ProviderRequest, schema: z.ZodType<T>): Promise<T> {
  const text = await fetchProviderText(request);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new ProviderResponseError(request.provider, 'response is not JSON');
  }
  return parseProviderResponse(request.provider, schema, data);
}

export function parseProviderResponse<T>(provider: string, schema: z.ZodType<T>, data: unknown): T {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.slice(0, 3).map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
  throw new ProviderResponseError(provider, `unexpected response shape (${issues.join('; ')})`);
}

/** Performs one HTTP call and maps every failure to a typed SearchError whose message holds no secret. */
export async function fetchProviderText(request: ProviderRequest): Promise<string> {
  const timeoutMs = request.connection.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
  const doFetch = request.connection.fetch ?? fetch;
  try {
    const response = await doFetch(request.url, {
      method: request.method ?? 'GET',
      headers: { accept: 'application/json', ...request.headers, ...(request.body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal,
    });
    const text = await response.text();
    if (!response.ok) throw errorForStatus(request, response, text);
    return text;
  } catch (err) {
    if (request.signal?.aborted) throw request.signal.reason;
    if (timeout.aborted) throw new ProviderUnavailableError(request.provider, `timed out after ${timeoutMs} ms`);
    if (err instanceof SearchError) throw err;
    throw new ProviderUnavailableError(request.provider, scrub(`network error: ${describeNetworkError(err)}`, request.secrets));
  }
}

function errorForStatus(request: ProviderRequest, response: Response, body: string): SearchError {
  const { provider } = request;
  const { status } = response;
  const detail = scrub(`HTTP ${status} from ${request.url.origin}${request.url.pathname}: ${body.slice(0, BODY_EXCERPT_CHARS)}`, request.secrets);
  if (status === 429) return new RateLimitedError(provider, parseRetryAfter(response.headers.get('retry-after')));
  if (status === 401 || status === 403) return new AuthError(provider, detail);
  if (status >= 500 || status === 408) return new ProviderUnavailableError(provider, detail);
  return new InvalidArgumentsError(provider, detail);
}

function describeNetworkError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
  return `${err.message}${cause}`;
}

function scrub(message: string, secrets: readonly string[]): string {
  return redactSecretValues(message, secrets);
}
