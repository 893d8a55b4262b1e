import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WorkflowFailedError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSweepInput, startSweep } from '../../src/client/start-sweep';
import { describeFailure, failureType } from '../../src/shared/failure';
import { buildRunManifest } from '../../src/runs/build-manifest';
import { runConfigSchema } from '../../src/runs/run-manifest';
import { FAILURE_TYPES } from '../../src/shared/constants';
import { DEMO_CLAIMS, uniqueName } from '../support/test-env';
import { startWorkerHarness, type WorkerHarness } from '../support/worker-harness';

/**
 * A sweep against a server that refuses a parameter verity's capability table does not foresee
 * (the simulator's `no-seed` profile): the first verification fails on a configuration error and the
 * sweep stops at once with one line naming the parameter and the model, instead of failing claim after claim.
 */
describe('a sweep against a server refusing a parameter', () => {
  let harness: WorkerHarness;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-refused-'));

  beforeAll(async () => {
    harness = await startWorkerHarness('refused', { simulator: { profile: 'no-seed' }, worker: { llm: { requestsPerSecond: 200, concurrency: 4 } } });
  });
  afterAll(async () => {
    await harness?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('stops within seconds with one line naming the parameter and the model', async () => {
    const { config, deps, client } = harness;
    const run = runConfigSchema.parse({
      run: uniqueName('refused'),
      datasets: [{ name: 'demo', file: DEMO_CLAIMS, format: 'verity', sample: 8 }],
      methods: ['rag'],
      models: ['gpt-4o-mini'],
      concurrency: 2,
    });
    const input = buildSweepInput(config, run, tmp);
    await deps.runs.save(await buildRunManifest(config, run, input));
    const started = Date.now();
    const { handle } = await startSweep(client, config.temporal.taskQueue, input, { rerunFinished: true });
    const error = await handle.result().then(
      () => undefined,
      (e: unknown) => e,
    );
    const elapsedMs = Date.now() - started;
    expect(error).toBeInstanceOf(WorkflowFailedError);
    const line = describeFailure(error as Error);
    expect(line).toMatch(/^the sweep stopped on a configuration error: gpt-4o-mini refuses the request parameter 'seed': /);
    expect(line).not.toContain('\n');
    expect(failureType(error as Error)).toBe(FAILURE_TYPES.configuration);
    expect(elapsedMs).toBeLessThan(15_000);
    // At most the verifications already started asked the server: never claim after claim.
    const chats = harness.simulator.requests().filter((r) => r.path === '/v1/chat/completions');
    expect(chats.length).toBeLessThanOrEqual(4);
  });
});
