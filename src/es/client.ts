import { Client, type ClientOptions, errors } from '@elastic/elasticsearch';
import type { EsConnection } from '../config/es-connection';
import { esReason } from './access-errors';
import { MAX_SETTINGS_FILE_BYTES, readInputFile } from '../config/input-file';

export interface EsConnectionOptions extends EsConnection {
  /** Per-request timeout; Temporal is the retry layer for activities, so client retries stay low. */
  requestTimeoutMs?: number;
  maxRetries?: number;
}

export class EsConnectionSetupError extends Error {
  override name = 'EsConnectionSetupError';
}

/** Client options for the connection: where, which credential, which CA to trust. */
export function esClientOptions(options: EsConnectionOptions): ClientOptions {
  const { auth } = options;
  return {
    ...(options.cloudId ? { cloud: { id: options.cloudId } } : { node: options.url }),
    ...(auth ? { auth: auth.kind === 'apiKey' ? { apiKey: auth.apiKey } : { username: auth.username, password: auth.password } } : {}),
    ...(options.caCertFile ? { tls: { ca: readCaFile(options.caCertFile) } } : {}),
    // A pinned CA replaces chain validation against the system store, as the Elasticsearch docs do it.
    ...(options.caFingerprint ? { caFingerprint: options.caFingerprint, tls: { rejectUnauthorized: false } } : {}),
    requestTimeout: options.requestTimeoutMs ?? 30_000,
    maxRetries: options.maxRetries ?? 0,
  };
}

function readCaFile(file: string): Buffer {
  try {
    return readInputFile(file, MAX_SETTINGS_FILE_BYTES);
  } catch (err) {
    throw new EsConnectionSetupError(`cannot read the Elasticsearch CA certificate ES_CA_CERT=${file}: ${(err as Error).message}`);
  }
}

export function createEsClient(options: EsConnectionOptions): Client {
  return new Client(esClientOptions(options));
}

export type EsProbe =
  | { state: 'up'; health: string }
  | { state: 'refused'; status: number; message: string }
  | { state: 'down'; reason: string; notElasticsearch?: boolean };

/**
 * One line for a server at ES_URL that is not Elasticsearch (a web page, another product), instead
 * of the page it answered with; undefined for any other error.
 */
export function notElasticsearchLine(err: unknown, url: string): string | undefined {
  const hint = 'set ES_URL to an Elasticsearch node';
  if (err instanceof errors.ProductNotSupportedError) return `the server at ${url} is not Elasticsearch (it does not say it is); ${hint}`;
  if (!(err instanceof errors.ResponseError)) return undefined;
  const body: unknown = err.meta?.body;
  if (typeof body !== 'string' || /^\s*[{[]/.test(body)) return undefined;
  const contentType = String(err.meta?.headers?.['content-type'] ?? 'unknown content').split(';')[0];
  return `the server at ${url} is not Elasticsearch (HTTP ${err.statusCode ?? '?'}, ${contentType} instead of a JSON answer); ${hint}`;
}

/**
 * Asks the cluster for its health with the configured credentials and trust. 'refused': an
 * Elasticsearch answered 401/403; 'down': nothing (or something that is not Elasticsearch) answered.
 */
export async function probeElasticsearch(connection: EsConnection, timeoutMs = 2_000): Promise<EsProbe> {
  let client: Client;
  try {
    client = createEsClient({ ...connection, requestTimeoutMs: timeoutMs, maxRetries: 0 });
  } catch (err) {
    return { state: 'down', reason: (err as Error).message };
  }
  try {
    const health = await client.cluster.health({}, { requestTimeout: timeoutMs });
    return { state: 'up', health: health.status };
  } catch (err) {
    if (err instanceof errors.ResponseError && (err.statusCode === 401 || err.statusCode === 403)) {
      return { state: 'refused', status: err.statusCode, message: esReason(err) };
    }
    const foreign = notElasticsearchLine(err, connection.url);
    if (foreign) return { state: 'down', reason: foreign, notElasticsearch: true };
    return { state: 'down', reason: (err as Error).message.split('\n')[0] ?? 'no answer' };
  } finally {
    await client.close();
  }
}

/**
 * Cluster health status ('green' | 'yellow' | 'red'), or undefined when no Elasticsearch answers
 * (or it refuses the credentials). Health rather than `GET /`: the minimal distribution answers 405 there.
 */
export async function clusterHealth(connection: EsConnection, timeoutMs = 2_000): Promise<string | undefined> {
  const probe = await probeElasticsearch(connection, timeoutMs);
  return probe.state === 'up' ? probe.health : undefined;
}

/** True when an Elasticsearch node answers at the URL and accepts the credentials. */
export async function esAnswers(connection: EsConnection, timeoutMs = 2_000): Promise<boolean> {
  return (await clusterHealth(connection, timeoutMs)) !== undefined;
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
