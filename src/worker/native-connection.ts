import { NativeConnection } from '@temporalio/worker';
import { TemporalUnreachableError, explainConnectFailure, temporalConnectionOptions } from '../client/temporal';
import type { TemporalConnection } from '../config/temporal-connection';

/** The workers' connection: the same address, TLS, API key and metadata as the client's. */
export async function connectNative(connection: TemporalConnection): Promise<NativeConnection> {
  const { address, tls, apiKey, metadata } = temporalConnectionOptions(connection);
  try {
    return await NativeConnection.connect({
      address,
      ...(tls ? { tls } : {}),
      ...(typeof apiKey === 'string' ? { apiKey } : {}),
      ...(metadata ? { metadata: metadata as Record<string, string> } : {}),
    });
  } catch (err) {
    throw new TemporalUnreachableError(await explainConnectFailure(err, connection));
  }
}
