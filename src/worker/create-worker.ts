import path from 'node:path';
import { NativeConnection, Worker } from '@temporalio/worker';
import type { Activities } from '../../activities';

export interface CreateWorkerOptions {
  address: string;
  namespace: string;
  taskQueue: string;
  activities: Activities;
  /** 0 forces a replay on every workflow task (used by tests to prove determinism). */
  maxCachedWorkflows?: number;
}

/** Resolves to workflows/index in source (tsx, vitest) and in dist alike. */
export const WORKFLOWS_PATH = require.resolve(path.join(__dirname, '..', '..', 'workflows'));

export async function createVerityWorker(options: CreateWorkerOptions): Promise<{ worker: Worker; connection: NativeConnection }> {
  const connection = await NativeConnection.connect({ address: options.address });
  try {
    const worker = await Worker.create({
      connection,
      namespace: options.namespace,
      taskQueue: options.taskQueue,
      workflowsPath: WORKFLOWS_PATH,
      activities: options.activities,
      shutdownGraceTime: '10 seconds',
      ...(options.maxCachedWorkflows !== undefined ? { maxCachedWorkflows: options.maxCachedWorkflows } : {}),
    });
    return { worker, connection };
  } catch (err) {
    await connection.close();
    throw err;
  }
}
