import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client as EsClient } from '@elastic/elasticsearch';
import type { Client, WorkflowHandle } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSweepInput, startSweep } from '../../src/client/start-sweep';
import { verdictOfResult } from '../../src/client/start-verification';
import type { VerityConfig } from '../../src/config/config';
import { indexName } from '../../src/es/indices';
import { buildRunManifest } from '../../src/runs/build-manifest';
import { runConfigSchema } from '../../src/runs/run-manifest';
import { SEARCH_ATTRIBUTES } from '../../src/shared/constants';
import { describeFailure } from '../../src/shared/failure';
import type { SweepInput, SweepProgress } from '../../src/shared/sweep';
import { type Verdict, type VerdictSummary, isVerdictSummary } from '../../src/shared/verify';
import type { RunningSimulator } from '../../src/simulator/server';
import type { WorkerDependencies } from '../../src/worker/dependencies';
import { sweepWorkflow } from '../../workflows';
import { cancelSweepUpdate, pauseSweepUpdate, resumeSweepUpdate, setSweepBudgetUpdate, sweepProgressQuery } from '../../src/shared/definitions/sweep';
import { DEMO_CLAIMS, uniqueName } from '../support/test-env';
import { waitFor } from '../support/wait-for';
import { startWorkerHarness, type WorkerHarness } from '../support/worker-harness';
import { PATCH_LEVEL_MEMO, PATCH_ORDER } from '../../src/shared/patches';

const DEMO_CLAIM_COUNT = 10;

/** Why an update was rejected (the validator's message is the failure's cause). */
async function rejection(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => 'not rejected',
    (err: Error) => describeFailure(err),
  );
}


describe('sweepWorkflow on real Temporal and Elasticsearch', () => {
  let harness: WorkerHarness;
  let prefix: string;
  let es: EsClient;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-sweep-'));
  let config: VerityConfig;
  let simulator: RunningSimulator;
  let deps: WorkerDependencies;
  let client: Client;

  /** A sweep input over the demo claims (and optional extra datasets), with a run id unique to the test. */
  function sweepInput(label: string, overrides: Record<string, unknown> = {}, extra: Partial<SweepInput> = {}): SweepInput {
    const run = runConfigSchema.parse({
      run: uniqueName(label),
      datasets: [{ name: 'demo', file: DEMO_CLAIMS, format: 'verity' }],
      methods: ['rag'],
      models: ['gpt-4o-mini'],
      concurrency: 3,
      ...overrides,
    });
    return { ...buildSweepInput(config, run, tmp), ...extra };
  }

  async function verdictsOf(runId: string): Promise<Verdict[]> {
    await es.indices.refresh({ index: indexName(prefix, 'verdicts') });
    const response = await es.search<Verdict>({ index: indexName(prefix, 'verdicts'), size: 1000, query: { term: { runId } } });
    return response.hits.hits.map((hit) => hit._source as Verdict);
  }

  const progressOf = (handle: WorkflowHandle<typeof sweepWorkflow>): Promise<SweepProgress> => handle.query(sweepProgressQuery);

  beforeAll(async () => {
    harness = await startWorkerHarness('sweep', { simulator: { latencyMs: 100 }, worker: { llm: { requestsPerSecond: 200, concurrency: 8 } } });
    ({ config, simulator, deps, client, prefix, es } = harness);
  });

  afterAll(async () => {
    await harness?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  describe('a small sweep with two models', () => {
    let input: SweepInput;
    let result: SweepProgress;
    let sweepHandle: WorkflowHandle<typeof sweepWorkflow>;

    beforeAll(async () => {
      input = sweepInput('two-models', { models: ['gpt-4o-mini', 'gpt-4o'] });
      const run = runConfigSchema.parse({ run: input.runId, datasets: [{ name: 'demo', file: DEMO_CLAIMS }], methods: ['rag'], models: ['gpt-4o-mini', 'gpt-4o'] });
      await deps.runs.save(await buildRunManifest(config, run, input));
      const { handle, attached } = await startSweep(client, config.temporal.taskQueue, input);
      expect(attached).toBe(false);
      sweepHandle = handle;
      result = await handle.result();
    });

    it('completes with exactly one verdict per (claim, method, model)', async () => {
      expect(result).toMatchObject({ status: 'completed', total: 2 * DEMO_CLAIM_COUNT, done: 2 * DEMO_CLAIM_COUNT, failed: 0, reused: 0, running: 0 });
      expect(result.tokens).toBeGreaterThan(0);
      const verdicts = await verdictsOf(input.runId);
      expect(verdicts).toHaveLength(2 * DEMO_CLAIM_COUNT);
      expect(new Set(verdicts.map((v) => `${v.claimId}|${v.method}|${v.model}`)).size).toBe(2 * DEMO_CLAIM_COUNT);
      expect(new Set(verdicts.map((v) => v.model))).toEqual(new Set(['gpt-4o-mini', 'gpt-4o']));
    });

    it('marks the run manifest completed', async () => {
      const manifest = await deps.runs.get(input.runId);
      expect(manifest).toMatchObject({ runId: input.runId, status: 'completed', llmProvider: 'openai-compatible' });
      expect(Object.values(manifest!.datasetHashes)[0]).toMatch(/^[0-9a-f]{64}$/);
    });

    it('sets run, dataset, method and model search attributes on its children', async () => {
      const [verdict] = await verdictsOf(input.runId);
      const description = await client.workflow.getHandle(verdict!.workflowId).describe();
      expect(verdict!.workflowId).toMatch(new RegExp(`^verify/${input.runId}/${verdict!.claimId}/rag/${encodeURIComponent(verdict!.model)}/[0-9a-f]{12}$`));
      expect(description.searchAttributes[SEARCH_ATTRIBUTES.run]).toEqual([input.runId]);
      expect(description.searchAttributes[SEARCH_ATTRIBUTES.dataset]).toEqual(['demo']);
      expect(description.searchAttributes[SEARCH_ATTRIBUTES.method]).toEqual(['rag']);
      expect(description.searchAttributes[SEARCH_ATTRIBUTES.model]).toEqual([verdict!.model]);
    });

    it('passes its patch level to its children, whose histories then hold no patch marker or change-version upsert', async () => {
      const [verdict] = await verdictsOf(input.runId);
      const child = client.workflow.getHandle(verdict!.workflowId);
      expect((await child.describe()).memo?.[PATCH_LEVEL_MEMO]).toBe(PATCH_ORDER.length);
      const events = (await child.fetchHistory()).events ?? [];
      expect(events.filter((event) => event.markerRecordedEventAttributes?.markerName === 'core_patch')).toEqual([]);
      expect(events.filter((event) => event.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields?.TemporalChangeVersion)).toEqual([]);
    });

    it('receives only a summary from each child (no trace in its history), and the whole verdict stays readable', async () => {
      const history = await sweepHandle.fetchHistory();
      const replies = (history.events ?? [])
        .map((event) => event.childWorkflowExecutionCompletedEventAttributes?.result?.payloads?.[0]?.data)
        .filter((data): data is Uint8Array => !!data)
        .map((data) => JSON.parse(Buffer.from(data).toString('utf8')) as Record<string, unknown>);
      expect(replies).toHaveLength(2 * DEMO_CLAIM_COUNT);
      for (const reply of replies) {
        expect(Object.keys(reply).sort()).toEqual(['label', 'summary', 'usage', 'workflowId']);
        expect(reply).not.toHaveProperty('trace');
      }
      // `verify` attaching to a sweep's verification reads the whole verdict from the index.
      const reply = replies[0] as unknown as VerdictSummary;
      expect(isVerdictSummary(reply)).toBe(true);
      const verdict = await verdictOfResult(config, reply);
      expect(verdict).toMatchObject({ workflowId: reply.workflowId, label: reply.label, runId: input.runId });
      expect(verdict.evidence.length).toBeGreaterThan(0);
    });

    it('attaches when started again, and a new execution of the same run reuses every verdict, without LLM calls', async () => {
      const before = simulator.arrivals().length;
      const again = await startSweep(client, config.temporal.taskQueue, input);
      expect(again.attached).toBe(true);
      expect((await again.handle.result()).done).toBe(2 * DEMO_CLAIM_COUNT);

      const rerun = await client.workflow.execute(sweepWorkflow, { workflowId: uniqueName('rerun'), taskQueue: config.temporal.taskQueue, args: [input] });
      expect(rerun).toMatchObject({ status: 'completed', done: 2 * DEMO_CLAIM_COUNT, reused: 2 * DEMO_CLAIM_COUNT, failed: 0 });
      expect(rerun.tokens).toBe(result.tokens);
      expect(simulator.arrivals().length).toBe(before);
      expect(await verdictsOf(input.runId)).toHaveLength(2 * DEMO_CLAIM_COUNT);
    });
  });

  it('pauses (running verifications finish, none start) and resumes', async () => {
    const { handle } = await startSweep(client, config.temporal.taskQueue, sweepInput('pause', { concurrency: 1 }));
    const paused = await handle.executeUpdate(pauseSweepUpdate);
    expect(paused.status).toBe('paused');
    await waitFor('the running verification to finish', async () => (await progressOf(handle)).running === 0);
    const doneWhilePaused = (await progressOf(handle)).done;
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await progressOf(handle)).toMatchObject({ status: 'paused', done: doneWhilePaused, running: 0 });
    expect(doneWhilePaused).toBeLessThan(DEMO_CLAIM_COUNT);
    expect(await rejection(handle.executeUpdate(pauseSweepUpdate))).toMatch(/cannot pause a sweep that is paused/);

    expect((await handle.executeUpdate(resumeSweepUpdate)).status).toBe('running');
    expect(await handle.result()).toMatchObject({ status: 'completed', done: DEMO_CLAIM_COUNT });
  });

  it('cancels: the run stops and is marked cancelled', async () => {
    const { handle } = await startSweep(client, config.temporal.taskQueue, sweepInput('cancel', { concurrency: 1 }));
    await waitFor('a first verdict', async () => (await progressOf(handle)).done >= 1);
    expect((await handle.executeUpdate(cancelSweepUpdate)).status).toBe('cancelled');
    const result = await handle.result();
    expect(result.status).toBe('cancelled');
    expect(result.done).toBeLessThan(DEMO_CLAIM_COUNT);
    expect(await rejection(handle.executeUpdate(resumeSweepUpdate))).toMatch(/cannot resume a sweep that is cancelled|completed|not found/i);
  });

  it('pauses with status budget-exhausted when the budget is spent, and continues after it is raised', async () => {
    const { handle } = await startSweep(client, config.temporal.taskQueue, sweepInput('budget', { concurrency: 2, budget: { tokens: 1 } }));
    await waitFor('the budget to run out', async () => {
      const progress = await progressOf(handle);
      return progress.status === 'budget-exhausted' && progress.running === 0;
    });
    const exhausted = await progressOf(handle);
    expect(exhausted.done).toBeGreaterThanOrEqual(1);
    expect(exhausted.done).toBeLessThan(DEMO_CLAIM_COUNT);
    expect(exhausted.tokens).toBeGreaterThanOrEqual(1);
    expect(await rejection(handle.executeUpdate(resumeSweepUpdate))).toMatch(/budget is exhausted/);
    expect(await rejection(handle.executeUpdate(setSweepBudgetUpdate, { args: [{ tokens: -5 }] }))).toMatch(/tokens must be a positive/);

    const raised = await handle.executeUpdate(setSweepBudgetUpdate, { args: [{ tokens: 10_000_000 }] });
    expect(raised.status).toBe('running');
    expect(await handle.result()).toMatchObject({ status: 'completed', done: DEMO_CLAIM_COUNT, budget: { tokens: 10_000_000 } });
  });

  it('starts no more verifications than the budget holds: no overshoot by a whole concurrency window, and says by how much it went over', async () => {
    const budget = 2_500;
    const { handle } = await startSweep(client, config.temporal.taskQueue, sweepInput('budget-window', { concurrency: 12, budget: { tokens: budget } }));
    await waitFor('the budget to run out', async () => {
      const progress = await progressOf(handle);
      return progress.status === 'budget-exhausted' && progress.running === 0;
    });
    const exhausted = await progressOf(handle);
    const verdicts = await verdictsOf(exhausted.runId);
    const perVerification = verdicts.map((verdict) => verdict.usage.totalTokens);
    expect(verdicts).toHaveLength(exhausted.done);
    expect(exhausted.done).toBeGreaterThanOrEqual(1);
    expect(exhausted.done).toBeLessThan(DEMO_CLAIM_COUNT);
    // Before the reservation all 10 claims started at once (concurrency 12) and the sweep ended `completed`.
    expect(exhausted.tokens).toBeLessThanOrEqual(budget + Math.max(...perVerification));
    if (exhausted.tokens > budget) expect(exhausted.overBudget).toEqual({ tokens: exhausted.tokens - budget });
    else expect(exhausted.overBudget).toBeUndefined();
    expect(await rejection(handle.executeUpdate(resumeSweepUpdate))).toMatch(/budget is exhausted/);
    await handle.executeUpdate(cancelSweepUpdate);
  });

  it("reserves the plan's per-claim estimate before any verification has finished: a budget far below one verification's estimate starts nothing", async () => {
    const { handle } = await startSweep(
      client,
      config.temporal.taskQueue,
      sweepInput('budget-planned', { concurrency: 12, budget: { tokens: 100 } }, { plannedPerVerification: { tokens: 2_000 } }),
    );
    await waitFor('the sweep to stop on its budget', async () => (await progressOf(handle)).status === 'budget-exhausted');
    const exhausted = await progressOf(handle);
    // Before, the first verification ran alone and went over by its whole spend.
    expect(exhausted).toMatchObject({ status: 'budget-exhausted', done: 0, failed: 0, running: 0, tokens: 0 });
    expect(exhausted.overBudget).toBeUndefined();
    expect(await verdictsOf(exhausted.runId)).toHaveLength(0);
    // A budget that holds the estimate lets it start.
    expect((await handle.executeUpdate(setSweepBudgetUpdate, { args: [{ tokens: 10_000_000 }] })).status).toBe('running');
    expect(await handle.result()).toMatchObject({ status: 'completed', done: DEMO_CLAIM_COUNT });
  });

  it('records a failing claim with its reason while the others complete', async () => {
    const otherFile = path.join(tmp, 'other.jsonl');
    fs.writeFileSync(
      otherFile,
      ['other-1', 'other-2']
        .map((id) => JSON.stringify({ id, dataset: 'demo', claim: `Claim ${id} about the Eiffel Tower.`, label: 'SUPPORTED', label_norm: 'SUPPORTED' }))
        .join('\n'),
    );
    const input = sweepInput('failing', {
      datasets: [
        { name: 'demo', file: DEMO_CLAIMS, format: 'verity' },
        { name: 'demo', file: otherFile, format: 'verity', index: `${prefix}-missing` },
      ],
    });
    const result = await (await startSweep(client, config.temporal.taskQueue, input)).handle.result();
    expect(result).toMatchObject({ status: 'completed', total: DEMO_CLAIM_COUNT + 2, done: DEMO_CLAIM_COUNT, failed: 2 });

    const failures = await deps.runFailures.list(input.runId);
    expect(failures.map((f) => f.claimId).sort()).toEqual(['other-1', 'other-2']);
    for (const failure of failures) {
      expect(failure.reason).toMatch(/does not exist/);
      expect(failure).toMatchObject({ type: 'IndexNotFound', method: 'rag', model: 'gpt-4o-mini', dataset: 'demo' });
    }
  });

  it('continues as new before its history grows long and still verifies every claim exactly once', async () => {
    const input = sweepInput('can', { concurrency: 3 }, { maxHistoryEvents: 30, pageSize: 4 });
    const { handle } = await startSweep(client, config.temporal.taskQueue, input);
    const result = await handle.result();
    expect(result).toMatchObject({ status: 'completed', done: DEMO_CLAIM_COUNT, failed: 0 });
    expect(result.continuedAsNew).toBeGreaterThanOrEqual(2);

    const runs = [];
    let reattached = 0;
    let handedOver = 0;
    for await (const execution of client.workflow.list({ query: `WorkflowId = "${handle.workflowId}"` })) {
      runs.push(execution.status.name);
      const events = (await client.workflow.getHandle(execution.workflowId, execution.runId).fetchHistory()).events ?? [];
      reattached += events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'awaitVerification').length;
      const continued = events.find((e) => e.workflowExecutionContinuedAsNewEventAttributes)?.workflowExecutionContinuedAsNewEventAttributes;
      const payload = continued?.input?.payloads?.[0]?.data;
      if (payload) handedOver += (JSON.parse(Buffer.from(payload).toString('utf8')) as { state: { inFlight: unknown[] } }).state.inFlight.length;
    }
    expect(runs.filter((status) => status === 'CONTINUED_AS_NEW')).toHaveLength(result.continuedAsNew);
    // Every child still running at a continue-as-new was awaited by the next run (how many were is up to timing).
    expect(reattached).toBe(handedOver);
    const verdicts = await verdictsOf(input.runId);
    expect(verdicts).toHaveLength(DEMO_CLAIM_COUNT);
    expect(new Set(verdicts.map((v) => v.claimId)).size).toBe(DEMO_CLAIM_COUNT);
  });

  it('in ordered mode verifies one claim at a time, in dataset order', async () => {
    const input = sweepInput('ordered', { concurrency: 4, ordered: true });
    expect((await (await startSweep(client, config.temporal.taskQueue, input)).handle.result()).done).toBe(DEMO_CLAIM_COUNT);
    const verdicts = (await verdictsOf(input.runId)).sort((a, b) => a.startedAt.localeCompare(b.startedAt));
    expect(verdicts.map((v) => v.claimId)).toEqual(Array.from({ length: DEMO_CLAIM_COUNT }, (_, i) => `demo-${i + 1}`));
    for (let i = 1; i < verdicts.length; i += 1) expect(verdicts[i]!.startedAt >= verdicts[i - 1]!.finishedAt).toBe(true);
  });
});
