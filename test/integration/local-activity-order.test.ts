import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig, uniqueName } from '../support/test-env';

const WORKFLOWS = path.join(__dirname, '..', 'support', 'workflows', 'concurrent-local-activities.workflow.ts');

/**
 * Issue 42's class, on its own: concurrent branches whose local activities finish at different
 * times in the first run and together on replay. Unordered, the replay schedules the next commands
 * in another order ("Missing associated machine for LocalActivity"); through
 * proxyOrderedLocalActivities it replays. Real Temporal, a real worker, the recorded history.
 */
describe('concurrent local activities on replay', () => {
  const taskQueue = uniqueName('la-order');
  let connection: NativeConnection;
  let client: Client;
  let worker: Worker;
  let running: Promise<void>;

  beforeAll(async () => {
    const config = testConfig();
    connection = await NativeConnection.connect({ address: config.temporal.address });
    client = new Client({ connection: await Connection.connect({ address: config.temporal.address }) });
    worker = await Worker.create({
      connection,
      taskQueue,
      workflowsPath: WORKFLOWS,
      activities: { pause: (ms: number) => new Promise<number>((resolve) => setTimeout(() => resolve(ms), ms)) },
    });
    running = worker.run();
  });

  afterAll(async () => {
    worker?.shutdown();
    await running;
    await client?.connection.close();
    await connection?.close();
  });

  async function runAndReplay(ordered: boolean): Promise<void> {
    const workflowId = `${taskQueue}-${ordered ? 'ordered' : 'unordered'}`;
    await expect(client.workflow.execute('concurrentLocalActivitiesWorkflow', { taskQueue, workflowId, args: [ordered] })).resolves.toEqual([805, 400]);
    const history = await client.workflow.getHandle(workflowId).fetchHistory();
    return Worker.runReplayHistory({ workflowsPath: WORKFLOWS }, history, workflowId);
  }

  it('unordered, the recorded history no longer replays (the SDK behaviour the fix works around)', async () => {
    await expect(runAndReplay(false)).rejects.toBeInstanceOf(DeterminismViolationError);
  });

  it('through proxyOrderedLocalActivities, it replays', async () => {
    await expect(runAndReplay(true)).resolves.toBeUndefined();
  });
});
