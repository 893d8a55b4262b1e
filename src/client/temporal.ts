import { Client, Connection, type ConnectionOptions } from '@temporalio/client';
import type { VerityConfig } from '../config/config';
import type { TemporalConnection } from '../config/temporal-connection';
import { tlsHandshakeProblem } from './tls-probe';
import { tracesUrl } from '../telemetry/tracing-env';

export class TemporalUnreachableError extends Error {
  override name = 'TemporalUnreachableError';
}

/**
 * Connection options shared by the client (grpc-js) and the workers (NativeConnection): the same
 * address, TLS, API key and metadata everywhere.
 */
export function temporalConnectionOptions(connection: TemporalConnection): Pick<ConnectionOptions, 'address' | 'tls' | 'apiKey' | 'metadata'> {
  return {
    address: connection.address,
    ...(connection.tls ? { tls: connection.tls } : {}),
    ...(connection.apiKey ? { apiKey: connection.apiKey } : {}),
    ...(connection.metadata ? { metadata: connection.metadata } : {}),
  };
}

/** A gRPC connection to the configured Temporal; failures become one line naming what to check. */
export async function connectTemporalConnection(connection: TemporalConnection, timeoutMs = 5_000): Promise<Connection> {
  try {
    return await Connection.connect({ ...temporalConnectionOptions(connection), connectTimeout: timeoutMs });
  } catch (err) {
    throw new TemporalUnreachableError(await explainConnectFailure(err, connection));
  }
}

/** The one-line reason of a failed connect; with TLS configured, a handshake of our own names what went wrong. */
export async function explainConnectFailure(err: unknown, connection: TemporalConnection): Promise<string> {
  const detail = causeChain(err);
  if (!AUTH_FAILURE.test(detail) && (connection.tls || connection.apiKey)) {
    const problem = await tlsHandshakeProblem(connection);
    if (problem) return describeTemporalConnectError(new Error(`TLS handshake: ${problem}`), connection);
  }
  return describeTemporalConnectError(new Error(detail), connection);
}

/** Messages of the error and its causes (the SDK wraps the gRPC status in `cause`). */
function causeChain(err: unknown): string {
  const messages: string[] = [];
  for (let current = err as { message?: string; cause?: unknown } | undefined; current && messages.length < 4; current = current.cause as typeof current) {
    if (current.message && !messages.includes(current.message)) messages.push(current.message);
  }
  return messages.join(': ') || String(err);
}

/** Connects to Temporal, failing with one clear line (and what to do) when it does not answer. */
export async function connectTemporal(config: VerityConfig): Promise<Client> {
  const connection = await connectTemporalConnection(config.temporal);
  // The tracing SDK is loaded only when tracing is on (telemetry/tracing-env.ts).
  const workflow = tracesUrl(process.env) ? (await import('../telemetry/client-tracing')).clientTracingInterceptors() : [];
  return new Client({ connection, namespace: config.temporal.namespace, interceptors: { workflow } });
}

const TLS_FAILURE = /certificate|ssl|tls|handshake|unknownissuer|self[- ]signed|alert|wrong version number|peer/i;
const AUTH_FAILURE = /unauthenticated|permission.?denied|unauthorized|authentication credentials/i;

/** One line: where, what failed (TLS, credentials, nothing answering), and which settings to check. */
export function describeTemporalConnectError(err: unknown, connection: TemporalConnection): string {
  const detail = flatten((err as Error)?.message ?? String(err));
  const where = `Temporal at ${connection.address}`;
  if (AUTH_FAILURE.test(detail)) {
    return `${where} refused the credentials (${detail}); check TEMPORAL_API_KEY or the client certificate`;
  }
  if (TLS_FAILURE.test(detail)) {
    const using = connection.tls || connection.apiKey ? describeTls(connection) : 'without TLS';
    return (
      `TLS with ${where} failed ${using} (${detail}); check TEMPORAL_TLS_SERVER_CA_CERT_PATH, TEMPORAL_TLS_SERVER_NAME ` +
      'and TEMPORAL_TLS_CLIENT_CERT_PATH/TEMPORAL_TLS_CLIENT_KEY_PATH (or the profile in temporal.toml)'
    );
  }
  const local = connection.tls || connection.apiKey ? '' : '; start it with `npm run infra:up` or set TEMPORAL_ADDRESS';
  return `Temporal is not reachable at ${connection.address} (${plainTransportReason(detail)})${local}`;
}

/** tonic's transport errors nest Rust debug output; the operating system's reason inside is what a person needs. */
export function plainTransportReason(detail: string): string {
  const osMessage = /message: "([^"]+)"/.exec(detail)?.[1];
  if (osMessage) return osMessage.toLowerCase();
  return /ConnectError\("([^"]+)"/.exec(detail)?.[1] ?? detail;
}

function describeTls(connection: TemporalConnection): string {
  const tls = connection.tls === true || connection.tls === undefined ? {} : connection.tls;
  const parts = [
    tls.serverRootCACertificate ? 'with a server CA' : "with the system's CAs",
    tls.clientCertPair ? 'a client certificate' : 'no client certificate',
    ...(tls.serverNameOverride ? [`server name ${tls.serverNameOverride}`] : []),
    ...(connection.apiKey ? ['an API key'] : []),
  ];
  return parts.join(', ');
}

/** The SDK's messages span lines and repeat causes; one line, bounded. */
function flatten(message: string): string {
  const line = message.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

/** Link to a workflow execution in the Temporal UI, when the UI's address is known. */
export function workflowUiUrl(config: VerityConfig, workflowId: string): string | undefined {
  if (!config.temporal.uiUrl) return undefined;
  return `${config.temporal.uiUrl}/namespaces/${encodeURIComponent(config.temporal.namespace)}/workflows/${encodeURIComponent(workflowId)}`;
}
