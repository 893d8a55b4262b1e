import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSweepInput, startSweep } from '../../src/client/start-sweep';
import { findStuckVerifications, findStuckWorkflows } from '../../src/client/stuck-workflows';
import { buildRunManifest } from '../../src/runs/build-manifest';
import { recordRun } from '../../src/runs/record-run';
import { runConfigSchema } from '../../src/runs/run-manifest';
import { SEARCH_ATTRIBUTES } from '../../src/shared/constants';
import { sweepProgressQuery } from '../../src/shared/definitions/sweep';
import { runCli } from '../support/cli-process';
import { uniqueName } from '../support/test-env';
import { waitFor } from '../support/wait-for';
import { startWorkerHarness, type WorkerHarness } from '../support/worker-harness';
import { WEDGE_MARKER } from '../support/workflows/wedge-interceptor';

const WEDGE_INTERCEPTOR = path.join(__dirname, '..', 'support', 'workflows', 'wedge-interceptor.ts');

/**
 * Issue 42: a verification whose workflow task keeps failing (a non-determinism error, or any other
 * workflow-task failure) makes no progress and stays open. It must never be waited for in silence:
 * `verify` says so and ends, `sweep status` names it with its cause, and the sweep records it as
 * failed after its bound. The wedge is real: a workflow interceptor throws in the workflow code of
 * claims marked `[wedge]`, so Temporal fails their workflow task on every attempt.
 */
describe('verifications stuck on a failing workflow task', () => {
  let harness: WorkerHarness;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-stuck-'));
  const claimsFile = path.join(tmp, 'claims.jsonl');
  const started: string[] = [];

  beforeAll(async () => {
    harness = await startWorkerHarness('stuck', { simulator: { latencyMs: 5 }, worker: { workflowInterceptorModules: [WEDGE_INTERCEPTOR] } });
    const claims = [
      { id: 'ok-1', claim: 'The Eiffel Tower is in Paris.', label: 'SUPPORTED' },
      { id: 'wedged', claim: `${WEDGE_MARKER} Marie Curie won two Nobel Prizes.`, label: 'SUPPORTED' },
      { id: 'ok-2', claim: 'The Great Wall of China is in Peru.', label: 'REFUTED' },
    ];
    const line = (c: (typeof claims)[number]) => JSON.stringify({ ...c, dataset: 'wedge', split: 'test', label_norm: c.label, gold_titles: [], gold_sentences: [], meta: {} });
    fs.writeFileSync(claimsFile, claims.map(line).join('\n') + '\n');
  });

  afterAll(async () => {
    // A stuck workflow never ends by itself: end the ones this test left.
    for (const workflowId of started) await harness?.client.workflow.getHandle(workflowId).terminate('test over').catch(() => undefined);
    await harness?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('verify says the verification is stuck, with the cause, instead of waiting', async () => {
    const runId = uniqueName('stuck-verify');
    const result = await runCli(['verify', `${WEDGE_MARKER} The Moon orbits the Earth.`, '--method', 'rag', '--run', runId], harness.env, 120_000);
    const line = result.stderr.split('\n').find((l) => l.startsWith('stuck:') || l.includes('stuck:'));
    started.push(...[...result.stderr.matchAll(/(verify\/\S+)/g)].map((m) => m[1]!.replace(/[:,]$/, '')));
    expect(result.code).toBe(1);
    expect(line).toMatch(/stuck: verify\/.*workflow task failed.*injected workflow task failure \(test\) \(attempt \d+/);
    expect(line).toContain('temporal workflow terminate');
  });

  it('sweep status names the stuck verification; the sweep records it as failed after its bound and finishes the others', async () => {
    const runId = uniqueName('stuck-sweep');
    const run = runConfigSchema.parse({
      run: runId,
      datasets: [{ name: 'wedge', file: claimsFile, format: 'verity' }],
      methods: ['rag'],
      models: ['gpt-4o-mini'],
      concurrency: 3,
      policies: { failStuckAfterSeconds: 20 },
    });
    const input = buildSweepInput(harness.config, run, tmp);
    expect(input.stuckAfterMs).toBe(20_000);
    await recordRun(harness.deps.runs, await buildRunManifest(harness.config, run, input));
    const { handle } = await startSweep(harness.client, harness.config.temporal.taskQueue, input);

    // Before the bound: the wedged verification is named, with Temporal's recorded cause.
    let stuck: Awaited<ReturnType<typeof findStuckVerifications>> = [];
    await waitFor(
      'the wedged verification to be found stuck',
      async () => (stuck = await findStuckVerifications(harness.client, SEARCH_ATTRIBUTES.run, runId)).length > 0,
      60_000,
      1_000,
    );
    started.push(...stuck.map((s) => s.workflowId));
    expect(stuck).toHaveLength(1);
    expect(stuck[0]!.workflowId).toContain('/wedged/');
    expect(stuck[0]!.failed).toBe(true);
    expect(stuck[0]!.cause).toContain('injected workflow task failure (test)');

    const status = await runCli(['sweep', 'status', runId], harness.env);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/stuck: 1 workflow whose workflow task keeps failing/);
    expect(status.stdout).toMatch(/verify\/.*\/wedged\/.*injected workflow task failure \(test\)/);
    const json = JSON.parse((await runCli(['sweep', 'status', runId, '--json'], harness.env)).stdout) as { stuck: { workflowId: string; cause: string }[] };
    expect(json.stuck.map((s) => s.workflowId)).toEqual([stuck[0]!.workflowId]);

    // After the bound: ended and counted as a failure with the cause, the other claims verified.
    const result = await handle.result();
    expect(result).toMatchObject({ status: 'completed', done: 2, failed: 1 });
    expect(result.topFailureReasons?.[0]?.reason).toMatch(/^WorkflowTaskStuck: stuck: workflow task failed \(workflow worker unhandled failure\): injected workflow task failure \(test\) \(attempt \d+, for /);
    const failures = await harness.deps.runFailures.list(runId);
    expect(failures.map((f) => [f.workflowId, f.type])).toEqual([[stuck[0]!.workflowId, 'WorkflowTaskStuck']]);
    const described = await harness.client.workflow.getHandle(stuck[0]!.workflowId).describe();
    expect(described.status.name).toBe('TERMINATED');
    expect(await findStuckWorkflows(harness.client, [stuck[0]!.workflowId])).toEqual([]);
    await expect(handle.query(sweepProgressQuery)).resolves.toMatchObject({ failed: 1 });
  });
});
