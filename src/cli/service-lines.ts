import { isGrpcServiceError } from '@temporalio/client';
import { isEsUnreachable } from '../retrieval/errors';

/**
 * Node's and the gRPC transport's raw reasons ("connect ECONNREFUSED 127.0.0.1:9200", "14
 * UNAVAILABLE: No connection established") in plain words; the raw text belongs in logs only.
 */
export function plainNetworkReason(raw: string): string {
  if (/certificate|self[- ]signed|SSL|TLS|handshake/i.test(raw)) return 'TLS handshake failed: check ES_CA_CERT or the server certificate';
  if (/ECONNREFUSED|connection refused/i.test(raw)) return 'connection refused';
  if (/ENOTFOUND|EAI_AGAIN|name resolution|dns/i.test(raw)) return 'host name not found';
  if (/ECONNRESET|socket hang up|connection reset|EPIPE/i.test(raw)) return 'connection dropped';
  if (/ETIMEDOUT|timed? ?out|deadline/i.test(raw)) return 'no answer in time';
  if (/EHOSTUNREACH|ENETUNREACH|unreachable/i.test(raw)) return 'network unreachable';
  return 'no connection';
}

/** The line for an Elasticsearch that does not answer: the service, its address, plain reason and what to do. */
export function esUnreachableLine(url: string, raw: string, hint = 'run `verity infra up` or set ES_URL'): string {
  return `Elasticsearch at ${url} does not answer (${plainNetworkReason(raw)}); ${hint}`;
}

/** The gRPC UNAVAILABLE (14) or DEADLINE_EXCEEDED (4) among the error's causes: Temporal stopped answering. */
function temporalUnavailable(err: unknown): { details: string } | undefined {
  for (let current = err as { cause?: unknown } | undefined, depth = 0; current && depth < 5; current = current.cause as typeof current, depth++) {
    if (isGrpcServiceError(current) && (current.code === 14 || current.code === 4)) return { details: `${current.code} ${current.details ?? current.message}` };
  }
  return undefined;
}

/**
 * One line for a service that stopped answering in the middle of a command (after its checks
 * passed), or undefined for any other error.
 */
export function serviceUnreachableLine(err: unknown, where: { esUrl: string; temporalAddress: string }): string | undefined {
  if (isEsUnreachable(err)) return esUnreachableLine(where.esUrl, (err as Error).message);
  const temporal = temporalUnavailable(err);
  if (temporal) {
    return `Temporal at ${where.temporalAddress} does not answer (${plainNetworkReason(temporal.details)}); run \`verity infra status\` (\`verity infra up\` starts it) or set TEMPORAL_ADDRESS`;
  }
  return undefined;
}
