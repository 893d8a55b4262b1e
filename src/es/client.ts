import { Client, errors } from '@elastic/elasticsearch';

export interface EsConnectionOptions {
  url: string;
  /** Per-request timeout; Temporal is the retry layer for activities, so client retries stay low. */
  requestTimeoutMs?: number;
  maxRetries?: number;
}

export function createEsClient(options: EsConnectionOptions): Client {
  return new Client({
    node: options.url,
    requestTimeout: options.requestTimeoutMs ?? 30_000,
    maxRetries: options.maxRetries ?? 0,
  });
}

/** True when Elasticsearch answers its root endpoint. */
export async function esAnswers(url: string, timeoutMs = 2_000): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    return response.ok;
  } catch {
    return false;
  }
}

export function isIndexNotFound(err: unknown): boolean {
  return (
    err instanceof errors.ResponseError &&
    (err.body as { error?: { type?: string } } | undefined)?.error?.type === 'index_not_found_exception'
  );
}

/** Connection refused, timeouts and 5xx/429 answers are worth retrying; anything else is not. */
export function isTransientEsError(err: unknown): boolean {
  if (err instanceof errors.ConnectionError || err instanceof errors.TimeoutError || err instanceof errors.NoLivingConnectionsError) {
    return true;
  }
  if (err instanceof errors.ResponseError) {
    const status = err.statusCode ?? 0;
    return status === 429 || status >= 500;
  }
  return false;
}
