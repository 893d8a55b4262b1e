import type { TLSConfig } from '@temporalio/client';
import { loadClientConfigProfile, toClientOptions } from '@temporalio/envconfig';

/**
 * How verity reaches Temporal, read the way the Temporal CLI reads it (`@temporalio/envconfig`):
 * the profile TEMPORAL_PROFILE (default "default") of the config file TEMPORAL_CONFIG_FILE (default
 * ~/.config/temporalio/temporal.toml), overridden by TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE,
 * TEMPORAL_API_KEY, TEMPORAL_TLS, TEMPORAL_TLS_CLIENT_CERT_PATH/_DATA, TEMPORAL_TLS_CLIENT_KEY_PATH/_DATA,
 * TEMPORAL_TLS_SERVER_CA_CERT_PATH/_DATA, TEMPORAL_TLS_SERVER_NAME and TEMPORAL_GRPC_META_*.
 * The CLI, the client and every worker connect with this one description.
 */
export interface TemporalConnection {
  address: string;
  namespace: string;
  /** true: TLS with the system's CAs; an object: a server CA, a server name and/or a client certificate pair. */
  tls?: TLSConfig | true;
  /** Sent as `authorization: Bearer <key>` (Temporal Cloud API keys); TLS is on whenever it is set. */
  apiKey?: string;
  /** Extra gRPC metadata from the profile (grpc_meta) or TEMPORAL_GRPC_META_*. */
  metadata?: Record<string, string>;
}

export const DEFAULT_TEMPORAL_ADDRESS = '127.0.0.1:7233';
export const DEFAULT_TEMPORAL_UI_URL = 'http://127.0.0.1:8233';
export const TEMPORAL_CLOUD_UI_URL = 'https://cloud.temporal.io';

/** Reads the profile and the TEMPORAL_* variables; throws with one line when they cannot be read. */
export function temporalConnectionFromEnv(env: Record<string, string | undefined>): TemporalConnection {
  const variables = Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1].trim() !== ''),
  );
  let options: ReturnType<typeof toClientOptions>;
  try {
    options = toClientOptions(loadClientConfigProfile({ overrideEnvVars: variables }));
  } catch (err) {
    const source = variables.TEMPORAL_CONFIG_FILE ? ` (TEMPORAL_CONFIG_FILE=${variables.TEMPORAL_CONFIG_FILE})` : '';
    throw new Error(`cannot read the Temporal connection profile${source}: ${(err as Error).message.split('\n')[0]}`);
  }
  const { connectionOptions } = options;
  const tls = connectionOptions.tls;
  return {
    address: connectionOptions.address ?? DEFAULT_TEMPORAL_ADDRESS,
    namespace: options.namespace ?? 'default',
    ...(tls === true || (typeof tls === 'object' && tls !== null) ? { tls: tls === true ? true : withoutUndefined(tls) } : {}),
    ...(connectionOptions.apiKey ? { apiKey: connectionOptions.apiKey } : {}),
    ...(connectionOptions.metadata && Object.keys(connectionOptions.metadata).length > 0
      ? { metadata: connectionOptions.metadata as Record<string, string> }
      : {}),
  };
}

function withoutUndefined(tls: TLSConfig): TLSConfig | true {
  const kept = Object.fromEntries(Object.entries(tls).filter(([, value]) => value !== undefined)) as TLSConfig;
  return Object.keys(kept).length > 0 ? kept : true;
}

/** Temporal Cloud endpoints: namespace endpoints (*.tmprl.cloud) and regional API endpoints (*.api.temporal.io). */
export function isTemporalCloud(address: string): boolean {
  const host = address.replace(/:\d+$/, '').toLowerCase();
  return host.endsWith('.tmprl.cloud') || host.endsWith('.api.temporal.io');
}

/** True when anything beyond a plain local address is configured (then verity never starts a dev server). */
export function isSecuredOrRemoteTemporal(connection: TemporalConnection): boolean {
  if (connection.tls || connection.apiKey) return true;
  const host = connection.address.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
  return !['127.0.0.1', 'localhost', '::1'].includes(host);
}

/**
 * Where the Temporal UI is: TEMPORAL_UI_URL when set, Temporal Cloud's UI for Cloud endpoints, the
 * local dev server's UI for a local address, and unknown for other self-hosted servers.
 */
export function temporalUiUrl(explicit: string | undefined, connection: TemporalConnection): string | undefined {
  if (explicit) return explicit.replace(/\/$/, '');
  if (isTemporalCloud(connection.address)) return TEMPORAL_CLOUD_UI_URL;
  return isSecuredOrRemoteTemporal(connection) ? undefined : devServerUiUrl(connection.address);
}

/** A dev server's UI listens 1000 above its frontend port (`temporal server start-dev --port 7311` → 8311). */
function devServerUiUrl(address: string): string {
  const port = Number(/:(\d+)$/.exec(address)?.[1] ?? 7233);
  return port + 1_000 <= 65_535 ? `http://127.0.0.1:${port + 1_000}` : DEFAULT_TEMPORAL_UI_URL;
}
