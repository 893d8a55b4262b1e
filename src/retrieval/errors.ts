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

/** Dense or hybrid retrieval over an index whose passages were ingested without embeddings. */
export class MissingEmbeddingsError extends Error {
  override name = 'MissingEmbeddingsError';
  readonly type = FAILURE_TYPES.invalidInput;
  constructor(readonly index: string) {
    super(`index "${index}" has no passage embeddings: dense and hybrid retrieval need it ingested with --embed (\`verity ingest wiki <file> --embed\`), or use --retrieval-mode bm25`);
  }
}
