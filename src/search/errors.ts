/** Base class of every search failure; `provider` names the provider, never its key. */
export class SearchError extends Error {
  constructor(
    readonly provider: string,
    message: string,
  ) {
    super(`${provider}: ${message}`);
    this.name = new.target.name;
  }
}

/** HTTP 429; `retryAfterSeconds` comes from the Retry-After header when the provider sends one. */
export class RateLimitedError extends SearchError {
  constructor(
    provider: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(provider, retryAfterSeconds === undefined ? 'rate limited' : `rate limited, retry after ${retryAfterSeconds}s`);
  }
}

/** 5xx, network failure or timeout: the provider may answer a later attempt. */
export class ProviderUnavailableError extends SearchError {}

/** Empty query, bad limit or similar: retrying the same call cannot succeed. */
export class InvalidArgumentsError extends SearchError {}

/** 401/403: the key is missing, wrong or lacks the plan for this call. */
export class AuthError extends SearchError {}

/** The provider answered 2xx with a body that does not have its documented shape. */
export class ProviderResponseError extends SearchError {}

export function isRetryable(err: unknown): boolean {
  return err instanceof RateLimitedError || err instanceof ProviderUnavailableError;
}
