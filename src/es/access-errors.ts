import { errors } from '@elastic/elasticsearch';
import { type EsConnection, describeEsCredential } from '../config/es-connection';

/** Elasticsearch answered 401 (no or wrong credential) or 403 (a privilege is missing). */
export function isEsAccessError(err: unknown): err is errors.ResponseError {
  return err instanceof errors.ResponseError && (err.statusCode === 401 || err.statusCode === 403);
}

/**
 * One line saying which credential was refused or which privilege is missing, from the
 * security_exception Elasticsearch returns, e.g. "action [indices:admin/create] is unauthorized for
 * user [reader] … on indices [v-wiki], this action is granted by the index privileges [create_index,manage,all]".
 */
export function describeEsAccessError(status: number, reason: string, connection?: EsConnection): string {
  const where = connection ? `Elasticsearch at ${connection.url}` : 'Elasticsearch';
  const credential = connection ? describeEsCredential(connection) : 'the configured credential';
  if (status === 401) {
    return `${where} refused ${credential} (401 ${firstLine(reason)}); check the credential`;
  }
  const action = /action \[([^\]]+)\]/.exec(reason)?.[1];
  const indices = /on indices \[([^\]]+)\]/.exec(reason)?.[1];
  const granted = /granted by the (index|cluster) privileges \[([^\]]+)\]/.exec(reason);
  if (!action || !granted) return `${where} denied a request to ${credential} (403 ${firstLine(reason)})`;
  const [kind, privileges] = [granted[1], (granted[2] ?? '').split(',')];
  const onWhat = indices ? ` on ${indices}` : '';
  return (
    `${where} denied ${action}${onWhat} to ${credential}: ` +
    `it needs the ${kind} privilege ${privileges[0]}${privileges.length > 1 ? ` (or ${privileges.slice(1).join(', ')})` : ''}`
  );
}

/** describeEsAccessError for an error thrown by the client. */
export function esAccessErrorLine(err: errors.ResponseError, connection?: EsConnection): string {
  return describeEsAccessError(err.statusCode ?? 0, esReason(err), connection);
}

/** The reason Elasticsearch gave (its security_exception text), not the client's summary. */
export function esReason(err: errors.ResponseError): string {
  const body = err.body as { error?: { reason?: string; root_cause?: Array<{ reason?: string }> } | string } | undefined;
  if (typeof body?.error === 'string') return body.error;
  return body?.error?.reason ?? body?.error?.root_cause?.[0]?.reason ?? err.message;
}

/**
 * One line for any other error answer of Elasticsearch: its error type and the first root cause
 * (for a failed search, "all shards failed" alone says nothing; the root cause says why).
 */
export function esErrorLine(err: errors.ResponseError): string {
  const body = err.body as { error?: { type?: string; reason?: string; root_cause?: Array<{ type?: string; reason?: string }> } | string } | undefined;
  if (typeof body?.error !== 'object') return err.message;
  const cause = body.error.root_cause?.[0];
  const detail = cause?.reason ?? body.error.reason;
  return `Elasticsearch answered ${err.statusCode ?? '?'} ${body.error.type ?? cause?.type ?? 'error'}${detail ? `: ${detail}` : ''}`;
}

function firstLine(text: string): string {
  return (text.split('\n')[0] ?? '').trim();
}
