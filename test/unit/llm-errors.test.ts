import { ApplicationFailure } from '@temporalio/common';
import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError } from '../../src/config/config';
import {
  classifyError,
  LlmCacheMissError,
  LlmInvalidInputError,
  LlmOutputInvalidError,
  redactSecrets,
  toTemporalFailure,
  TRANSIENT_FAILURE_TYPES,
} from '../../src/llm/errors';
import { FAILURE_TYPES } from '../../src/shared/constants';

const apiError = (status: number, message = 'boom', headers: Record<string, string> = {}) =>
  APIError.generate(status, { message }, undefined, new Headers(headers));

describe('classifyError', () => {
  it.each([
    [429, TRANSIENT_FAILURE_TYPES.rateLimited],
    [500, TRANSIENT_FAILURE_TYPES.serverError],
    [503, TRANSIENT_FAILURE_TYPES.serverError],
  ])('HTTP %i is retryable', (status, type) => {
    expect(classifyError(apiError(status))).toMatchObject({ retryable: true, type });
  });

  it.each([
    [400, FAILURE_TYPES.llmRequestRejected],
    [401, FAILURE_TYPES.configuration],
    [403, FAILURE_TYPES.configuration],
    [404, FAILURE_TYPES.configuration],
  ])('HTTP %i is not retryable', (status, type) => {
    expect(classifyError(apiError(status))).toMatchObject({ retryable: false, type });
  });

  it('retries timeouts and connection errors', () => {
    expect(classifyError(new APIConnectionTimeoutError())).toMatchObject({ retryable: true, type: TRANSIENT_FAILURE_TYPES.timeout });
    expect(classifyError(new APIConnectionError({ message: 'refused' }))).toMatchObject({ retryable: true, type: TRANSIENT_FAILURE_TYPES.connection });
  });

  it('never retries invalid output, cache misses, bad input or configuration', () => {
    expect(classifyError(new LlmOutputInvalidError('bad', 'm', ''))).toMatchObject({ retryable: false, type: FAILURE_TYPES.llmOutputInvalid });
    expect(classifyError(new LlmCacheMissError('abc'))).toMatchObject({ retryable: false, type: FAILURE_TYPES.llmCacheMiss });
    expect(classifyError(new LlmInvalidInputError('x'))).toMatchObject({ retryable: false, type: FAILURE_TYPES.invalidInput });
    expect(classifyError(z.string().safeParse(1).error)).toMatchObject({ retryable: false, type: FAILURE_TYPES.invalidInput });
    expect(classifyError(new ConfigError('x'))).toMatchObject({ retryable: false, type: FAILURE_TYPES.configuration });
  });
});

describe('toTemporalFailure', () => {
  it('sets nonRetryable and type, and the retry delay of a 429', () => {
    const rateLimited = toTemporalFailure(apiError(429, 'slow down', { 'retry-after': '2' }));
    expect(rateLimited).toBeInstanceOf(ApplicationFailure);
    expect(rateLimited).toMatchObject({ nonRetryable: false, type: TRANSIENT_FAILURE_TYPES.rateLimited, nextRetryDelay: 2000 });
    expect(toTemporalFailure(apiError(401))).toMatchObject({ nonRetryable: true, type: FAILURE_TYPES.configuration });
  });

  it('honours a Retry-After given as an HTTP date', () => {
    const inNinetySeconds = new Date(Date.now() + 90_000).toUTCString();
    const delay = toTemporalFailure(apiError(429, 'slow down', { 'retry-after': inNinetySeconds })).nextRetryDelay as number;
    expect(delay).toBeGreaterThanOrEqual(88_000);
    expect(delay).toBeLessThanOrEqual(91_000);
    expect(toTemporalFailure(apiError(429, 'slow down', { 'retry-after': 'soon' })).nextRetryDelay).toBeUndefined();
  });

  it('passes ApplicationFailures through', () => {
    const failure = ApplicationFailure.nonRetryable('x', 'T');
    expect(toTemporalFailure(failure)).toBe(failure);
  });

  it('never carries an API key', () => {
    const failure = toTemporalFailure(apiError(401, 'Incorrect API key provided: sk-proj-abcdef123456'));
    expect(failure.message).not.toContain('abcdef123456');
    expect(redactSecrets('key is s3cr3t-value!', 's3cr3t-value!')).toBe('key is [redacted]');
  });

  it('redacts only values long enough to be secrets, as whole tokens (OPENAI_API_KEY=sim leaves "simulated" alone)', () => {
    expect(redactSecrets('the simulated endpoint answered', 'sim')).toBe('the simulated endpoint answered');
    expect(redactSecrets('Bearer Zq8pW2xR9k and Zq8pW2xR9kExtra', 'Zq8pW2xR9k')).toBe('Bearer [redacted] and Zq8pW2xR9kExtra');
    expect(redactSecrets('url ?key=Zq8pW2xR9k&x=1', 'Zq8pW2xR9k')).toBe('url ?key=[redacted]&x=1');
    expect(redactSecrets('a.b*c(d)e+f? appears', 'a.b*c(d)e+f?')).toBe('[redacted] appears');
  });
});
