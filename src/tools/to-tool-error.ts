import { CacheMissError } from '../cache/cache-miss-error';
import { isIndexNotFound, isTransientEsError } from '../es/client';
import { InvalidMemoryScopeError } from '../memory/scope';
import { BlockedUrlError, FetchTimeoutError, PageFetchError, PageReadError, isRetryablePageError } from '../pages/errors';
import { IndexNotFoundError, InvalidQueryError, MissingEmbeddingsError } from '../retrieval/errors';
import { AuthError, InvalidArgumentsError, RateLimitedError, SearchError } from '../search/errors';
import { RecordedWebMissingError } from '../search/recorded-provider';
import { ToolError } from './errors';

/** Maps the typed errors of src/search, src/pages and Elasticsearch onto ToolError kinds; anything else is returned unchanged. */
export function toToolError(err: unknown): unknown {
  if (err instanceof ToolError) return err;
  if (err instanceof SearchError) return fromSearchError(err);
  if (err instanceof PageReadError) return fromPageError(err);
  if (err instanceof IndexNotFoundError || isIndexNotFound(err)) return new ToolError('indexNotFound', (err as Error).message);
  if (err instanceof InvalidQueryError || err instanceof InvalidMemoryScopeError || err instanceof MissingEmbeddingsError) return new ToolError('invalidArguments', err.message);
  if (err instanceof CacheMissError) return new ToolError('cacheMiss', err.message);
  if (isTransientEsError(err)) return new ToolError('unavailable', `Elasticsearch unavailable: ${(err as Error).message}`);
  return err;
}

function fromSearchError(err: SearchError): ToolError {
  if (err instanceof InvalidArgumentsError) return new ToolError('invalidArguments', err.message);
  if (err instanceof RecordedWebMissingError) return new ToolError('indexNotFound', err.message);
  if (err instanceof RateLimitedError) return new ToolError('rateLimited', err.message, { retryAfterSeconds: err.retryAfterSeconds });
  if (err instanceof AuthError) return new ToolError('unauthorized', err.message);
  return new ToolError('unavailable', err.message);
}

function fromPageError(err: PageReadError): ToolError {
  if (err instanceof BlockedUrlError) return new ToolError('blockedUrl', err.message);
  if (err instanceof PageFetchError && err.status === 429) return new ToolError('rateLimited', err.message);
  if (err instanceof FetchTimeoutError || isRetryablePageError(err)) return new ToolError('unavailable', err.message);
  if (err instanceof PageFetchError && (err.status === 404 || err.status === 410)) return new ToolError('notFound', err.message);
  return new ToolError('unreadable', err.message);
}
