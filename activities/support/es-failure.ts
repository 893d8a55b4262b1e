import { ApplicationFailure } from '@temporalio/common';
import { esAccessErrorLine, isEsAccessError } from '../../src/es/access-errors';
import { isIndexNotFound, isTransientEsError } from '../../src/es/client';
import { IndexNotFoundError, InvalidQueryError, MissingEmbeddingsError } from '../../src/retrieval/errors';
import { FAILURE_TYPES } from '../../src/shared/constants';

/**
 * Maps an Elasticsearch failure onto Temporal's retry semantics: a missing index is final,
 * unavailability is retried, anything else is retried by default policy.
 */
export function toEsFailure(err: unknown): unknown {
  if (err instanceof IndexNotFoundError || isIndexNotFound(err)) {
    return ApplicationFailure.nonRetryable((err as Error).message, FAILURE_TYPES.indexNotFound);
  }
  if (err instanceof InvalidQueryError || err instanceof MissingEmbeddingsError) {
    return ApplicationFailure.nonRetryable(err.message, FAILURE_TYPES.invalidInput);
  }
  if (isEsAccessError(err)) {
    // Retrying does not grant a privilege; the message names the missing one (never the credential).
    return ApplicationFailure.nonRetryable(esAccessErrorLine(err), 'ElasticsearchAccessDenied');
  }
  if (isTransientEsError(err)) {
    return ApplicationFailure.retryable(`Elasticsearch unavailable: ${(err as Error).message}`, 'ElasticsearchUnavailable');
  }
  return err;
}
