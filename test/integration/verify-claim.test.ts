import { type Client, WorkflowFailedError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVerifyInput, workflowIdOf, startVerification } from '../../src/client/start-verification';
import type { VerityConfig } from '../../src/config/config';
import { SEARCH_ATTRIBUTES, VERDICT_LABELS } from '../../src/shared/constants';
import { fullVerdict, type VerifyClaimInput } from '../../src/shared/verify';
import type { RunningSimulator } from '../../src/simulator/server';
import type { WorkerDependencies } from '../../src/worker/dependencies';
import { verifyClaimWorkflow } from '../../workflows';
import { uniqueName } from '../support/test-env';
import { startWorkerHarness, type WorkerHarness } from '../support/worker-harness';
import { expectTaskQueueReplays } from '../support/workflow-history';

const API_KEY = 'sk-test-secret-never-in-history';

describe('verifyClaimWorkflow (rag) on real Temporal and Elasticsearch', () => {
  let harness: WorkerHarness;
  let config: VerityConfig;
  let simulator: RunningSimulator;
  let deps: WorkerDependencies;
  let client: Client;
  let prefix: string;

  beforeAll(async () => {
    harness = await startWorkerHarness('verify', { apiKey: API_KEY });
    ({ config, simulator, deps, client, prefix } = harness);
  });

  afterAll(async () => {
    await harness?.close();
  });

  const eiffelClaim = 'The Eiffel Tower is located in Paris.';

  it('retrieves evidence, returns a labelled verdict with cited passages and stores it in Elasticsearch', async () => {
    const input = buildVerifyInput(config, { claim: eiffelClaim, method: 'rag' });
    const { handle, attached } = await startVerification(client, config.temporal.taskQueue, input);
    expect(attached).toBe(false);
    const verdict = fullVerdict(await handle.result());

    expect(VERDICT_LABELS).toContain(verdict.label);
    expect(verdict.evidence.length).toBeGreaterThan(0);
    expect(verdict.evidence[0]?.title).toMatch(/Eiffel/);
    expect(verdict.rationale.length).toBeGreaterThan(0);
    expect(verdict.usage).toMatchObject({ llmCalls: 1, toolCalls: 1 });
    expect(verdict.usage.totalTokens).toBeGreaterThan(0);
    expect(verdict.model).toBe(config.llm.models.judge);
    expect(verdict.promptVersion).toBe('rag.verdict-rationale-first@1');

    const stored = await deps.verdicts.get(handle.workflowId);
    expect(stored?.label).toBe(verdict.label);
    expect(stored?.claim).toBe(eiffelClaim);

    const description = await handle.describe();
    expect(description.searchAttributes[SEARCH_ATTRIBUTES.label]).toEqual([verdict.label]);
    expect(description.searchAttributes[SEARCH_ATTRIBUTES.method]).toEqual(['rag']);
  });

  it('attaches to the stored result when the same claim is verified again, without another LLM call', async () => {
    const input = buildVerifyInput(config, { claim: eiffelClaim, method: 'rag' });
    const callsBefore = simulator.requests().length;
    const { handle, attached } = await startVerification(client, config.temporal.taskQueue, input);
    expect(attached).toBe(true);
    expect(fullVerdict(await handle.result()).claim).toBe(eiffelClaim);
    expect(simulator.requests().length).toBe(callsBefore);
  });

  it('keeps the API key out of the workflow history', async () => {
    const input = buildVerifyInput(config, { claim: eiffelClaim, method: 'rag' });
    const history = await client.workflow.getHandle(workflowIdOf(input)).fetchHistory();
    expect(JSON.stringify(history)).not.toContain(API_KEY);
  });

  it('fails fast and non-retryably on invalid input that bypassed the client', async () => {
    const input: VerifyClaimInput = { ...buildVerifyInput(config, { claim: 'x', method: 'rag' }), claim: '   ', claimId: uniqueName('empty') };
    const error = await client.workflow
      .execute(verifyClaimWorkflow, { workflowId: uniqueName('invalid'), taskQueue: config.temporal.taskQueue, args: [input] })
      .catch((err: unknown) => err);
    expect(error).toBeInstanceOf(WorkflowFailedError);
    expect(String((error as WorkflowFailedError).cause?.message)).toMatch(/claim is empty/);
  });

  it('fails with a clear, non-retryable error when the index does not exist', async () => {
    const input = buildVerifyInput(config, { claim: 'Mount Everest is the highest mountain.', method: 'rag', index: `${prefix}-missing` });
    const started = Date.now();
    const error = await client.workflow
      .execute(verifyClaimWorkflow, { workflowId: uniqueName('missing-index'), taskQueue: config.temporal.taskQueue, args: [input] })
      .catch((err: unknown) => err);
    expect(error).toBeInstanceOf(WorkflowFailedError);
    // Retrieval is a local activity: its ApplicationFailure is the workflow's failure itself (a
    // regular activity would wrap it in an ActivityFailure).
    const failure = (error as WorkflowFailedError).cause;
    const cause = (failure?.cause ?? failure) as Error | undefined;
    expect(cause?.message).toMatch(/does not exist/);
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('every workflow this file ran replays with the current workflow code', async () => {
    expect(await expectTaskQueueReplays(harness.client, harness.config.temporal.taskQueue)).toBeGreaterThan(0);
  });
});
