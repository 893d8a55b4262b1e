import { errors } from '@elastic/elasticsearch';
import { FAILURE_TYPES } from '../shared/constants';

/** The searched index does not exist: nothing has been ingested into it yet. */
export class IndexNotFoundError extends Error {
  override name = 'IndexNotFoundError';
  readonly type = FAILURE_TYPES.indexNotFound;
  constructor(readonly index: string) {
    super(`index "${index}" does not exist; ingest a corpus first with \`verity ingest wiki <file>\``);
  }
}

/** The query cannot be searched (empty, or a bad result count). */
export class InvalidQueryError extends Error {
  override name = 'InvalidQueryError';
  readonly type = FAILURE_TYPES.invalidInput;
}

/** True when Elasticsearch could not be reached at all (as opposed to answering with an error). */
export function isEsUnreachable(err: unknown): boolean {
  return (
    err instanceof errors.ConnectionError || err instanceof errors.NoLivingConnectionsError || err instanceof errors.TimeoutError
  );
}
