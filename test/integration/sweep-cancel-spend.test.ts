import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSweepInput, startSweep } from '../../src/client/start-sweep';
import { indexName } from '../../src/es/indices';
import { runConfigSchema } from '../../src/runs/run-manifest';
import { cancelSweepUpdate, sweepProgressQuery } from '../../src/shared/definitions/sweep';
import { CANCELLED_WITH_SWEEP } from '../../src/shared/sweep';
import type { Verdict } from '../../src/shared/verify';
import { DEMO_CLAIMS, uniqueName } from '../support/test-env';
import { waitFor } from '../support/wait-for';
import { startWorkerHarness, type WorkerHarness } from '../support/worker-harness';

/**
 * `sweep cancel` with LLM calls in flight (a slow simulator): every call the simulator answered is
 * counted in the sweep's usage, and the cancelled verifications are shown as cancelled, not running.
 */
describe('a cancelled sweep counts what its cancelled verifications paid', () => {
  let harness: WorkerHarness;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-cancel-spend-'));

  beforeAll(async () => {
    harness = await startWorkerHarness('cancel-spend', { simulator: { latencyMs: 3_000 }, worker: { llm: { requestsPerSecond: 200, concurrency: 8 } } });
  });

  afterAll(async () => {
    await harness?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('cancelled with calls in flight: every answered call is in the usage, and nothing is left running', async () => {
    const { config, client, simulator, es, deps, prefix } = harness;
    const run = runConfigSchema.parse({ run: uniqueName('cancel'), datasets: [{ name: 'demo', file: DEMO_CLAIMS, format: 'verity' }], methods: ['rag'], models: ['gpt-4o-mini'], concurrency: 4 });
    const { handle } = await startSweep(client, config.temporal.taskQueue, buildSweepInput(config, run, tmp));
    const chat = () => simulator.requests().filter((request) => request.path.includes('chat/completions'));
    // The log has a request once answered: cancel while the first ones are still being answered.
    await waitFor('verifications running', async () => (await handle.query(sweepProgressQuery)).running >= 3, 60_000, 50);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(chat()).toHaveLength(0);
    expect((await handle.executeUpdate(cancelSweepUpdate)).status).toBe('cancelled');
    const result = await handle.result();

    expect(result).toMatchObject({ status: 'cancelled', running: 0 });
    expect(result.cancelled).toBeGreaterThanOrEqual(1);
    // Calls answered after the sweep returned would be lost to it: none may come later.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const answered = chat().filter((request) => request.status === 200);
    expect(answered.length).toBeGreaterThanOrEqual(2);

    await es.indices.refresh({ index: indexName(prefix, 'verdicts') });
    const verdicts = (await es.search<Verdict>({ index: indexName(prefix, 'verdicts'), size: 100, query: { term: { runId: run.run } } })).hits.hits.map((hit) => hit._source!);
    const cancelled = (await deps.runFailures.list(run.run)).filter((failure) => failure.type === CANCELLED_WITH_SWEEP);
    expect(cancelled).toHaveLength(result.cancelled!);
    // A verification cancelled after it stored its verdict is counted once, as cancelled, with what it paid.
    const cancelledIds = new Set(cancelled.map((failure) => failure.workflowId));
    const finished = verdicts.filter((verdict) => !cancelledIds.has(verdict.workflowId));
    expect(result.done).toBe(finished.length);
    const paidInVerdicts = finished.reduce((sum, verdict) => sum + verdict.usage.llmCalls - verdict.usage.cachedLlmCalls, 0);
    const paidInCancelled = cancelled.reduce((sum, failure) => sum + Number(/\((\d+) paid LLM call/.exec(failure.reason)?.[1] ?? NaN), 0);
    // Before: the sweep returned at once, its cancelled verifications' calls (answered or not) never counted.
    expect(paidInVerdicts + paidInCancelled).toBe(answered.length);
    const tokens = finished.reduce((sum, verdict) => sum + verdict.usage.totalTokens, 0) + cancelled.reduce((sum, failure) => sum + (failure.tokens ?? 0), 0);
    expect(result.tokens).toBe(tokens);
    expect(paidInCancelled).toBeGreaterThanOrEqual(1);
    expect(await handle.query(sweepProgressQuery)).toMatchObject({ running: 0, cancelled: result.cancelled });
  });
});
