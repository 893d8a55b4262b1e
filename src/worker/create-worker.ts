import fs from 'node:fs';
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

/** workflows/index.ts in source (tsx, vitest), workflows/index.js in dist. */
export const WORKFLOWS_PATH = ['.ts', '.js']
  .map((extension) => path.join(__dirname, '..', '..', 'workflows', `index${extension}`))
  .find((file) => fs.existsSync(file)) ?? path.join(__dirname, '..', '..', 'workflows', 'index');

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
