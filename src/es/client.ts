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

/**
 * Cluster health status ('green' | 'yellow' | 'red'), or undefined when no Elasticsearch answers.
 * Health rather than `GET /`: the minimal distribution answers 405 there, and any web server 200.
 */
export async function clusterHealth(url: string, timeoutMs = 2_000): Promise<string | undefined> {
  try {
    const response = await fetch(`${url}/_cluster/health`, { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok || response.headers.get('x-elastic-product') !== 'Elasticsearch') return undefined;
    return ((await response.json()) as { status?: string }).status;
  } catch {
    return undefined;
  }
}

/** True when an Elasticsearch node answers at the URL. */
export async function esAnswers(url: string, timeoutMs = 2_000): Promise<boolean> {
  return (await clusterHealth(url, timeoutMs)) !== undefined;
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
