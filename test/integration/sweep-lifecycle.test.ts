import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSweepInput, startSweep } from '../../src/client/start-sweep';
import type { VerityConfig } from '../../src/config/config';
import { ingestCorpus } from '../../src/corpus/ingest';
import { buildRunManifest } from '../../src/runs/build-manifest';
import { IncompatibleRunChangeError, recordRun } from '../../src/runs/record-run';
import { type RunConfig, runConfigSchema } from '../../src/runs/run-manifest';
import type { SweepInput } from '../../src/shared/sweep';
import type { RunningSimulator } from '../../src/simulator/server';
import type { WorkerDependencies } from '../../src/worker/dependencies';
import { DEMO_CLAIMS, DEMO_CORPUS, uniqueName } from '../support/test-env';
import { waitFor } from '../support/wait-for';
import { formatProgress } from '../../src/cli/sweep-progress';
import { formatLlmRate, readLlmRateStatus } from '../../src/client/llm-rate-status';
import { queueRateLimitOf } from '../../src/client/queue-rate-limit';
import { llmRateWorkflowId } from '../../src/shared/llm-rate';
import { llmTaskQueue } from '../../src/shared/task-queues';
import { cancelSweepUpdate, sweepProgressQuery } from '../../src/shared/definitions/sweep';
import { startWorkerHarness, type WorkerHarness } from '../support/worker-harness';

/** Claims drawn from the demo set per run (small keeps the test fast). */
const DEMO_CLAIM_COUNT = 4;

/** The LLM queue's own limit; the adaptive rate's ceiling. */
const LLM_RPS = 200;

/**
 * Growing a run, retrying its failures, its policies and limits, and the adaptive LLM rate: what
 * `verity sweep run` and `verity sweep retry` do, on real Temporal and ES.
 */
describe('a run that grows, retries its failures, polices itself and adapts its LLM rate', () => {
  let harness: WorkerHarness;
  let prefix: string;
  let config: VerityConfig;
  let simulator: RunningSimulator;
  let deps: WorkerDependencies;
  let client: Client;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-lifecycle-'));

  function runConfig(runId: string, overrides: Record<string, unknown> = {}): RunConfig {
    return runConfigSchema.parse({ run: runId, datasets: [{ name: 'demo', file: DEMO_CLAIMS, format: 'verity', sample: DEMO_CLAIM_COUNT }], methods: ['rag'], models: ['gpt-4o-mini'], concurrency: 4, ...overrides });
  }

  /** Records the manifest like `verity sweep run` and runs the sweep to its end. */
  async function runSweep(run: RunConfig, rerunFinished = false) {
    const input: SweepInput = buildSweepInput(config, run, tmp);
    const recorded = await recordRun(deps.runs, await buildRunManifest(config, run, input));
    const before = simulator.arrivals().length;
    const { handle } = await startSweep(client, config.temporal.taskQueue, input, { rerunFinished: rerunFinished || recorded.kind === 'grown' });
    const result = await handle.result();
    return { recorded, result, llmCalls: simulator.arrivals().length - before };
  }

  beforeAll(async () => {
    harness = await startWorkerHarness('lifecycle', {
      simulator: { latencyMs: 10 },
      env: { VERITY_LLM_RPS: String(LLM_RPS), VERITY_LLM_AIMD_INTERVAL_MS: '500' },
      worker: { llm: { requestsPerSecond: LLM_RPS, concurrency: 8 } },
    });
    ({ config, simulator, deps, client, prefix } = harness);
  });

  afterAll(async () => {
    await harness?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('adding a model to a completed run verifies only the new variant; an incompatible change is refused by name', async () => {
    const runId = uniqueName('grow');
    const first = await runSweep(runConfig(runId));
    expect(first.recorded).toEqual({ kind: 'new' });
    expect(first.result).toMatchObject({ status: 'completed', done: DEMO_CLAIM_COUNT, reused: 0, failed: 0 });

    const grown = await runSweep(runConfig(runId, { models: ['gpt-4o-mini', 'gpt-4.1'] }));
    expect(grown.recorded).toEqual({ kind: 'grown', added: ['model gpt-4.1'] });
    expect(grown.result).toMatchObject({ status: 'completed', total: 2 * DEMO_CLAIM_COUNT, done: 2 * DEMO_CLAIM_COUNT, reused: DEMO_CLAIM_COUNT, failed: 0 });
    // Exactly as many LLM calls as the first run's variant made: only gpt-4.1's verifications ran.
    expect(grown.llmCalls).toBe(first.llmCalls);
    expect((await deps.runs.get(runId))?.config.models).toEqual(['gpt-4o-mini', 'gpt-4.1']);

    const changedSeed = runConfig(runId, { models: ['gpt-4o-mini', 'gpt-4.1'], seed: 99 });
    const refused = recordRun(deps.runs, await buildRunManifest(config, changedSeed, buildSweepInput(config, changedSeed, tmp)));
    await expect(refused).rejects.toThrow(IncompatibleRunChangeError);
    await expect(refused).rejects.toThrow(/seed changed from 7 to 99/);
  });

  it('retry re-runs only the failed verifications and keeps their earlier failures', async () => {
    const otherFile = path.join(tmp, 'later.jsonl');
    fs.writeFileSync(
      otherFile,
      ['later-1', 'later-2'].map((id) => JSON.stringify({ id, dataset: 'demo', claim: `Claim ${id} about the Eiffel Tower.`, label: 'SUPPORTED', label_norm: 'SUPPORTED' })).join('\n'),
    );
    const laterIndex = `${prefix}-later`;
    const run = runConfig(uniqueName('retry'), {
      datasets: [
        { name: 'demo', file: DEMO_CLAIMS, format: 'verity', sample: DEMO_CLAIM_COUNT },
        { name: 'demo', file: otherFile, format: 'verity', index: laterIndex },
      ],
      // A model of its own: LLM answers cached by the other test would hide calls.
      models: ['gpt-4.1-mini'],
    });
    const first = await runSweep(run);
    expect(first.result).toMatchObject({ status: 'completed', done: DEMO_CLAIM_COUNT, failed: 2 });

    // Still failing: recorded again, with the first failure kept as an earlier one.
    const again = await runSweep(run, true);
    expect(again.recorded).toEqual({ kind: 'same' });
    expect(again.result).toMatchObject({ status: 'completed', done: DEMO_CLAIM_COUNT, reused: DEMO_CLAIM_COUNT, failed: 2 });
    expect(again.llmCalls).toBe(0);
    const failures = await deps.runFailures.list(run.run);
    expect(failures).toHaveLength(2);
    for (const failure of failures) {
      expect(failure.earlier).toHaveLength(1);
      expect(failure.earlier![0]).toMatchObject({ type: 'IndexNotFound' });
    }

    await ingestCorpus({ client: harness.es, index: laterIndex, file: DEMO_CORPUS });
    const fixed = await runSweep(run, true);
    expect(fixed.result).toMatchObject({ status: 'completed', done: DEMO_CLAIM_COUNT + 2, reused: DEMO_CLAIM_COUNT, failed: 0 });
    // Two verifications ran: as many LLM calls as two of the first run's successful ones.
    expect(fixed.llmCalls).toBe((first.llmCalls / DEMO_CLAIM_COUNT) * 2);
    expect((await deps.runFailures.list(run.run)).map((f) => f.earlier?.length)).toEqual([1, 1]);
  });

  it('the failure-rate policy pauses the sweep and shows the top failure reasons', async () => {
    const failingFile = path.join(tmp, 'failing.jsonl');
    fs.writeFileSync(
      failingFile,
      ['bad-1', 'bad-2', 'bad-3', 'bad-4'].map((id) => JSON.stringify({ id, dataset: 'demo', claim: `Claim ${id} about Paris.`, label: 'SUPPORTED', label_norm: 'SUPPORTED' })).join('\n'),
    );
    const run = runConfig(uniqueName('policy'), {
      datasets: [
        { name: 'demo', file: failingFile, format: 'verity', index: `${prefix}-absent` },
        { name: 'demo', file: DEMO_CLAIMS, format: 'verity', sample: DEMO_CLAIM_COUNT },
      ],
      concurrency: 3,
      policies: { maxFailureRate: 0.5, minVerifications: 3 },
    });
    const { handle } = await startSweep(client, config.temporal.taskQueue, buildSweepInput(config, run, tmp));
    await waitFor('the policy to pause the sweep', async () => {
      const progress = await handle.query(sweepProgressQuery);
      return progress.status === 'paused' && progress.running === 0;
    });
    const paused = await handle.query(sweepProgressQuery);
    // The window of 3 started the failing claims first. Slots freed by the first failures (before
    // minVerifications was reached) may have started the 4th failing claim and a good one.
    expect(paused).toMatchObject({ status: 'paused', pausedBy: 'failure-rate' });
    expect(paused.failed).toBeGreaterThanOrEqual(3);
    expect(paused.done).toBeLessThanOrEqual(2);
    expect(paused.done + paused.failed).toBeLessThan(paused.total);
    expect(paused.topFailureReasons).toEqual([{ reason: expect.stringMatching(/^IndexNotFound: .*does not exist/), count: paused.failed }]);
    expect(formatProgress(paused)).toMatch(/paused by the failure-rate policy[\s\S]*\d × IndexNotFound/);
    await handle.executeUpdate(cancelSweepUpdate);
  });

  it('per-verification limits end a verification with its reason recorded and its spend counted', async () => {
    const run = runConfig(uniqueName('limits'), {
      datasets: [{ name: 'demo', file: DEMO_CLAIMS, format: 'verity', sample: 2 }],
      methods: ['mermaid'],
      models: ['o4-mini'],
      parameters: { mermaid: { memory: 'off', maxSteps: 4 } },
      limits: { tokens: 1 },
    });
    const result = await (await startSweep(client, config.temporal.taskQueue, buildSweepInput(config, run, tmp))).handle.result();
    expect(result).toMatchObject({ status: 'completed', done: 0, failed: 2 });
    // The first LLM call was made (and paid) before the limit stopped the second: the sweep counts it.
    expect(result.tokens).toBeGreaterThan(0);
    const failures = await deps.runFailures.list(run.run);
    expect(failures).toHaveLength(2);
    for (const failure of failures) {
      expect(failure).toMatchObject({ type: 'VerificationLimitReached', reason: expect.stringMatching(/^token limit reached: \d+ tokens used, limit 1$/) });
      expect(failure.tokens).toBeGreaterThan(0);
    }
    expect(failures.reduce((sum, f) => sum + (f.tokens ?? 0), 0)).toBe(result.tokens);

    const slow = runConfig(uniqueName('wall'), { datasets: [{ name: 'demo', file: DEMO_CLAIMS, format: 'verity', sample: 1 }], models: ['o4-mini'], limits: { seconds: 0.001 } });
    const walled = await (await startSweep(client, config.temporal.taskQueue, buildSweepInput(config, slow, tmp))).handle.result();
    expect(walled).toMatchObject({ done: 0, failed: 1 });
    expect((await deps.runFailures.list(slow.run))[0]?.reason).toMatch(/^wall-time limit reached: .* s, limit 0.001 s$/);
  });

  it('cuts the rate on sustained 429s, for every worker of the queue, and raises it again once they stop', async () => {
    const llmQueue = llmTaskQueue(config.temporal.taskQueue);
    simulator.setFaults([{ kind: '429', probability: 1 }]);
    // A model of its own: LLM answers cached by the other tests would hide calls.
    const run = runConfig(uniqueName('aimd'), { datasets: [{ name: 'demo', file: DEMO_CLAIMS, format: 'verity', sample: 3 }], models: ['gpt-4o'], concurrency: 3 });
    const { handle } = await startSweep(client, config.temporal.taskQueue, buildSweepInput(config, run, tmp));

    // Every request answers 429 (Retry-After: 1): the controller halves the rate once per cooldown.
    // The rate is the queue's own, on the start schedule all its workers share and as the server's queue limit.
    let cut = await readLlmRateStatus(client, config);
    await waitFor('two cuts of the rate, applied to the queue', async () => {
      cut = await readLlmRateStatus(client, config);
      return cut.adapting && cut.rate <= LLM_RPS / 4 && (await queueRateLimitOf(client, llmQueue)) === cut.rate && (await deps.llmPacing!.rateLimitOf(llmQueue)) === cut.rate;
    }, 20_000, 100);
    expect(cut.rateLimitedCount).toBeGreaterThan(0);
    expect(formatLlmRate(cut)).toMatch(new RegExp(`LLM queue: ${cut.rate} req/s \\(adaptive, ceiling ${LLM_RPS}\\); \\d+ × 429 since`));

    // The 429s stop: the rate climbs back step by step; at the ceiling the controller removes its limit and ends.
    simulator.setFaults([]);
    let rising = cut;
    await waitFor('the rate to rise again', async () => {
      rising = await readLlmRateStatus(client, config);
      return rising.adapting && rising.rate > cut.rate;
    }, 20_000, 100);
    expect(rising.rate).toBeLessThan(LLM_RPS);
    const final = await client.workflow.getHandle(llmRateWorkflowId(llmQueue)).result();
    expect(final).toMatchObject({ rate: LLM_RPS });
    expect(final.decreases).toBeGreaterThanOrEqual(2);
    expect(await queueRateLimitOf(client, llmQueue)).toBeUndefined();
    expect(await deps.llmPacing!.rateLimitOf(llmQueue)).toBeUndefined();
    const after = await readLlmRateStatus(client, config);
    expect(after).toMatchObject({ rate: LLM_RPS, adapting: false, rateLimitedCount: final.rateLimitedCount });

    // Every verification finished: the 429s were retried after their Retry-After.
    expect(await handle.result()).toMatchObject({ status: 'completed', done: 3, failed: 0 });
    const rateLimited = simulator.requests().filter((request) => request.fault === '429').length;
    expect(final.rateLimitedCount).toBe(rateLimited);
  });
});
