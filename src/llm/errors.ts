import { ApplicationFailure } from '@temporalio/common';
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { ZodError } from 'zod';
import { ConfigError } from '../config/config';
import { redactSecretValues, redactUrlsIn } from '../config/redact-url';
import { isTransientEsError } from '../es/client';
import { parseRetryAfter } from '../search/retry-after';
import { FAILURE_TYPES } from '../shared/constants';
import type { InvalidOutputDetails, PaidInvalidCall } from '../shared/invalid-answer';

export type { InvalidOutputDetails, PaidInvalidCall } from '../shared/invalid-answer';

/** Types of retryable failures (Temporal retries them; listed for dashboards and tests). */
export const TRANSIENT_FAILURE_TYPES = {
  rateLimited: 'LlmRateLimited',
  serverError: 'LlmServerError',
  timeout: 'LlmTimeout',
  connection: 'LlmConnectionError',
  aborted: 'LlmRequestAborted',
  elasticsearch: 'ElasticsearchUnavailable',
  unexpected: 'UnexpectedError',
} as const;

/** The model answered, but its output is not JSON or does not match the task's schema. */
export class LlmOutputInvalidError extends Error {
  override name = 'LlmOutputInvalidError';
  constructor(
    message: string,
    readonly model: string,
    /** The start of the raw answer, for diagnosis. */
    readonly rawExcerpt: string,
    /** The paid call that produced the answer (usage, cost, identity), so the workflow still counts it. */
    public paidCall?: PaidInvalidCall,
  ) {
    super(message);
  }
}

/** Cache mode 'replay' and the request was never recorded. */
export class LlmCacheMissError extends Error {
  override name = 'LlmCacheMissError';
  constructor(readonly requestHash: string) {
    super(`LLM cache miss in replay mode for request ${requestHash}: record it first with VERITY_LLM_CACHE=readwrite`);
  }
}

/**
 * The prompt does not fit the model's context window: it could not be budgeted to fit (even
 * without evidence), or the server rejected it as too long. Never retried: the same prompt
 * cannot fit on the next attempt. The message is one line naming the window.
 */
export class LlmContextExceededError extends Error {
  override name = 'LlmContextExceededError';
  constructor(
    message: string,
    readonly model: string,
    /** The model's window in tokens, when known. */
    readonly contextTokens?: number,
  ) {
    super(oneLine(message));
  }
}

/**
 * A server's own context-overflow answer: OpenAI's 400 `context_length_exceeded`, llama.cpp's
 * `exceed_context_size_error` ("the request exceeds the available context size"), or a 4xx/5xx
 * whose message says the prompt exceeds the context window / maximum context length.
 */
export function isContextOverflow(err: unknown): err is APIError {
  if (!(err instanceof APIError) || err.status === undefined || err.status < 400 || err.status === 429) return false;
  if (err.code === 'context_length_exceeded' || err.type === 'exceed_context_size_error') return true;
  return /maximum context length|exceeds? the available context size|exceed(s|ed)? (the )?context (window|length|size)|context[_ ]length[_ ]exceeded/i.test(err.message);
}

/** The server's `n_ctx` (llama.cpp puts it in its overflow error), if any. */
export function contextTokensOf(err: APIError): number | undefined {
  const nCtx = (err.error as { n_ctx?: unknown } | undefined)?.n_ctx;
  return typeof nCtx === 'number' && nCtx > 0 ? nCtx : undefined;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * A server refused a parameter or value of the request that the capability table (capabilities.ts)
 * did not foresee, and no safe rule adapts the request: a configuration error (never retried, the
 * same request would be refused for every claim). The message is one line naming the parameter and the model.
 */
export class LlmParameterRefusedError extends ConfigError {
  override name = 'LlmParameterRefusedError';
  constructor(
    readonly model: string,
    readonly parameter: string,
    serverMessage: string,
  ) {
    super(oneLine(`${model} refuses the request parameter '${parameter}': ${serverMessage} (add the model's row to src/llm/capabilities.ts or change the configuration)`));
  }
}

/** The parameter a 400 says is unsupported (OpenAI's `unsupported_parameter` / `unsupported_value`, "Unrecognized request argument"), if any. */
export function refusedParameterOf(err: unknown): string | undefined {
  if (!(err instanceof APIError) || err.status !== 400) return undefined;
  const byCode = err.code === 'unsupported_parameter' || err.code === 'unsupported_value';
  const quoted = /Unsupported (?:parameter|value): '([^']+)'/.exec(err.message)?.[1];
  const unrecognized = /Unrecognized request arguments? supplied: ([\w.]+)/.exec(err.message)?.[1];
  const param = typeof err.param === 'string' && err.param !== '' ? err.param : undefined;
  if (!byCode && !quoted && !unrecognized) return undefined;
  return param ?? quoted ?? unrecognized;
}

/** Bad task id or variables: the caller's fault, never retried. */
export class LlmInvalidInputError extends Error {
  override name = 'LlmInvalidInputError';
}

export interface ErrorClassification {
  retryable: boolean;
  type: string;
  message: string;
  /** From a 429's retry-after header. */
  retryAfterMs?: number;
}

const nonRetryable = (type: string, message: string): ErrorClassification => ({ retryable: false, type, message });
const retryable = (type: string, message: string): ErrorClassification => ({ retryable: true, type, message });

export function classifyError(err: unknown): ErrorClassification {
  const message = redactSecrets(err instanceof Error ? err.message : String(err));
  if (err instanceof LlmOutputInvalidError) return nonRetryable(FAILURE_TYPES.llmOutputInvalid, message);
  if (err instanceof LlmCacheMissError) return nonRetryable(FAILURE_TYPES.llmCacheMiss, message);
  if (err instanceof LlmContextExceededError || isContextOverflow(err)) return nonRetryable(FAILURE_TYPES.llmContextExceeded, message);
  if (err instanceof LlmInvalidInputError || err instanceof ZodError) return nonRetryable(FAILURE_TYPES.invalidInput, message);
  if (err instanceof ConfigError) return nonRetryable(FAILURE_TYPES.configuration, message);
  if (err instanceof APIError) return classifyApiError(err, message);
  if (isTransientEsError(err)) return retryable(TRANSIENT_FAILURE_TYPES.elasticsearch, message);
  return retryable(TRANSIENT_FAILURE_TYPES.unexpected, message);
}

function classifyApiError(err: APIError, message: string): ErrorClassification {
  if (err instanceof APIConnectionTimeoutError) return retryable(TRANSIENT_FAILURE_TYPES.timeout, message);
  if (err instanceof APIUserAbortError) return retryable(TRANSIENT_FAILURE_TYPES.aborted, message);
  if (err instanceof APIConnectionError) return retryable(TRANSIENT_FAILURE_TYPES.connection, message);
  const status = err.status ?? 0;
  if (status === 429) return { ...retryable(TRANSIENT_FAILURE_TYPES.rateLimited, message), retryAfterMs: retryAfterMs(err.headers) };
  if (status >= 500 || status === 408 || status === 409) return retryable(TRANSIENT_FAILURE_TYPES.serverError, message);
  if (status === 401 || status === 403) {
    return nonRetryable(FAILURE_TYPES.configuration, `LLM endpoint refused the credentials (${status}): ${message}`);
  }
  if (status === 404) return nonRetryable(FAILURE_TYPES.configuration, `model or endpoint not found (404): ${message}`);
  return nonRetryable(FAILURE_TYPES.llmRequestRejected, message);
}

/** Retry-After in seconds or as an HTTP date; the next attempt waits that long (Temporal's nextRetryDelay). */
function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | undefined {
  const seconds = parseRetryAfter(headers?.get('retry-after') ?? null, now);
  return seconds !== undefined && seconds > 0 ? seconds * 1000 : undefined;
}

/** Converts any error of an LLM call into the ApplicationFailure Temporal should see. */
export function toTemporalFailure(err: unknown): ApplicationFailure {
  if (err instanceof ApplicationFailure) return err;
  const { retryable: canRetry, type, message, retryAfterMs: delay } = classifyError(err);
  return ApplicationFailure.create({
    message,
    type,
    nonRetryable: !canRetry,
    nextRetryDelay: delay,
    // The start of an unparsable answer, for methods whose protocol keeps it (MERMAID's Thought).
    // With the paid call's usage and identity, so that budgets and limits count it.
    ...(err instanceof LlmOutputInvalidError ? { details: [invalidOutputDetails(err)] } : {}),
  });
}

function invalidOutputDetails(err: LlmOutputInvalidError): InvalidOutputDetails {
  return { rawExcerpt: redactSecrets(err.rawExcerpt), ...(err.paidCall ? { call: err.paidCall } : {}) };
}

/** Removes anything that looks like an API key (providers echo partial keys in 401 messages) and the credentials of quoted URLs. */
export function redactSecrets(text: string, ...secrets: (string | undefined)[]): string {
  const result = redactUrlsIn(text).replace(/\b(sk|key|api)[-_][A-Za-z0-9_*-]{6,}/g, '[redacted]');
  return redactSecretValues(result, secrets);
}
