import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBraveProvider } from '../../src/search/brave';
import {
  AuthError,
  InvalidArgumentsError,
  isRetryable,
  ProviderResponseError,
  ProviderUnavailableError,
  RateLimitedError,
} from '../../src/search/errors';
import { parseRetryAfter } from '../../src/search/retry-after';
import { createSerperProvider } from '../../src/search/serper';
import { startFixtureServer, type FixtureServer } from '../fixtures/http/fixture-server';

const KEY = 'sk-secret-serper-0123456789';

let server: FixtureServer;
beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(() => server.close());

const serper = (timeoutMs?: number) => createSerperProvider({ apiKey: KEY, baseUrl: server.baseUrl, timeoutMs });

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a failure');
}

describe('provider errors', () => {
  it('429 → RateLimitedError with Retry-After, retryable', async () => {
    server.route('POST /search', { status: 429, headers: { 'retry-after': '7', 'content-type': 'application/json' }, body: '{"message":"Too many requests"}' });
    const err = await failure(serper().search('q', { limit: 3 }));
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as RateLimitedError).retryAfterSeconds).toBe(7);
    expect(isRetryable(err)).toBe(true);
  });

  it('401/403 → AuthError, not retryable, and the key never appears in the message', async () => {
    // A provider that echoes the key it rejected must not leak it through our error.
    server.route('POST /search', { status: 403, body: `{"message":"Unauthorized: key ${KEY} is not valid","statusCode":403}` });
    const err = await failure(serper().search('q', { limit: 3 }));
    expect(err).toBeInstanceOf(AuthError);
    expect(isRetryable(err)).toBe(false);
    expect(err.message).toContain('HTTP 403');
    expect(err.message).not.toContain(KEY);
    expect(String(err.stack)).not.toContain(KEY);
    expect(JSON.stringify(err)).not.toContain(KEY);
  });

  it('5xx → ProviderUnavailableError, retryable', async () => {
    server.route('POST /search', { status: 503, body: 'upstream overloaded' });
    const err = await failure(serper().search('q', { limit: 3 }));
    expect(err).toBeInstanceOf(ProviderUnavailableError);
    expect(isRetryable(err)).toBe(true);
  });

  it('timeout → ProviderUnavailableError', async () => {
    server.route('POST /search', (_request, response) => void setTimeout(() => response.end('{}'), 2_000).unref());
    const err = await failure(serper(100).search('q', { limit: 3 }));
    expect(err).toBeInstanceOf(ProviderUnavailableError);
    expect(err.message).toMatch(/timed out after 100 ms/);
  });

  it('network failure → ProviderUnavailableError', async () => {
    const err = await failure(createBraveProvider({ apiKey: KEY, baseUrl: 'http://127.0.0.1:9' }).search('q', { limit: 3 }));
    expect(err).toBeInstanceOf(ProviderUnavailableError);
    expect(err.message).not.toContain(KEY);
  });

  it("a caller's abort propagates as the caller's reason", async () => {
    server.route('POST /search', (_request, response) => void setTimeout(() => response.end('{}'), 2_000).unref());
    const controller = new AbortController();
    const pending = serper().search('q', { limit: 3, signal: controller.signal });
    controller.abort(new Error('cancelled by workflow'));
    await expect(pending).rejects.toThrow('cancelled by workflow');
  });

  it('malformed body → ProviderResponseError naming the bad field', async () => {
    server.route('POST /search', { body: '{"organic":[{"title":42,"link":"https://example.org"}]}' });
    const err = await failure(serper().search('q', { limit: 3 }));
    expect(err).toBeInstanceOf(ProviderResponseError);
    expect(err.message).toContain('organic.0.title');
    server.route('POST /search', { body: 'not json' });
    expect(await failure(serper().search('q', { limit: 3 }))).toBeInstanceOf(ProviderResponseError);
  });

  it('other 4xx → InvalidArgumentsError', async () => {
    server.route('POST /search', { status: 400, body: '{"message":"Query too long"}' });
    expect(await failure(serper().search('q', { limit: 3 }))).toBeInstanceOf(InvalidArgumentsError);
  });

  it.each([
    ['', 5],
    ['   ', 5],
    ['claim', 0],
    ['claim', 101],
    ['claim', 2.5],
    ['claim', Number.NaN],
  ])('rejects query %j with limit %s before any request', async (query, limit) => {
    const before = server.requests.length;
    const err = await failure(serper().search(query, { limit }));
    expect(err).toBeInstanceOf(InvalidArgumentsError);
    expect(isRetryable(err)).toBe(false);
    expect(server.requests.length).toBe(before);
  });

  it('parses Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2025-01-08T10:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120);
    expect(parseRetryAfter('Wed, 08 Jan 2025 10:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});
