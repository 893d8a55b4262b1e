import { Client, Connection } from '@temporalio/client';
import type { VerityConfig } from '../config/config';

export class TemporalUnreachableError extends Error {
  override name = 'TemporalUnreachableError';
}

/** Connects to Temporal, failing with one clear line (and what to do) when it does not answer. */
export async function connectTemporal(config: VerityConfig): Promise<Client> {
  let connection: Connection;
  try {
    connection = await Connection.connect({ address: config.temporal.address, connectTimeout: '5 seconds' });
  } catch (err) {
    throw new TemporalUnreachableError(
      `Temporal is not reachable at ${config.temporal.address} (${(err as Error).message.split('\n')[0]}); start it with \`npm run infra:up\` or set TEMPORAL_ADDRESS`,
    );
  }
  return new Client({ connection, namespace: config.temporal.namespace });
}

/** Link to a workflow execution in the Temporal UI. */
export function workflowUiUrl(config: VerityConfig, workflowId: string): string {
  return `${config.temporal.uiUrl}/namespaces/${encodeURIComponent(config.temporal.namespace)}/workflows/${encodeURIComponent(workflowId)}`;
}
