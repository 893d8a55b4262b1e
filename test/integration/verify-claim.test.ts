import { Client, Connection, WorkflowFailedError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActivities } from '../../activities';
import { buildVerifyInput, startVerification } from '../../src/client/start-verification';
import type { VerityConfig } from '../../src/config/config';
import { ingestCorpus } from '../../src/corpus/ingest';
import { createEsClient } from '../../src/es/client';
import { indexName } from '../../src/es/indices';
import { createLogger } from '../../src/logging/logger';
import { SEARCH_ATTRIBUTES, VERDICT_LABELS } from '../../src/shared/constants';
import type { VerifyClaimInput } from '../../src/shared/verify';
import { startSimulator, type RunningSimulator } from '../../src/simulator/server';
import { createVerityWorker, type VerityWorker } from '../../src/worker/create-worker';
import { createWorkerDependencies, type WorkerDependencies } from '../../src/worker/dependencies';
import { verifyClaimWorkflow } from '../../workflows';
import { DEMO_CORPUS, deleteIndicesWithPrefix, testConfig, uniqueName } from '../support/test-env';

const API_KEY = 'sk-test-secret-never-in-history';

describe('verifyClaimWorkflow (rag) on real Temporal and Elasticsearch', () => {
  let config: VerityConfig;
  let simulator: RunningSimulator;
  let deps: WorkerDependencies;
  let client: Client;
  let worker: VerityWorker;
  let workerClosed: Promise<void>;
  const es = createEsClient({ url: process.env.ES_URL ?? 'http://127.0.0.1:9200' });
  const prefix = uniqueName('verify');

  beforeAll(async () => {
    simulator = await startSimulator({ port: 0 });
    config = testConfig({
      ES_INDEX_PREFIX: prefix,
      TEMPORAL_TASK_QUEUE: prefix,
      OPENAI_BASE_URL: simulator.url,
      OPENAI_API_KEY: API_KEY,
    });
    await ingestCorpus({ client: es, index: indexName(prefix, 'wiki'), file: DEMO_CORPUS });
    deps = await createWorkerDependencies(config, createLogger('warn'));
    const created = await createVerityWorker({
      address: config.temporal.address,
      namespace: config.temporal.namespace,
      taskQueue: config.temporal.taskQueue,
      activities: createActivities(deps),
      maxCachedWorkflows: 0,
    });
    worker = created.worker;
    workerClosed = worker.run().finally(() => created.connection.close());
    client = new Client({ connection: await Connection.connect({ address: config.temporal.address }) });
  });

  afterAll(async () => {
    worker?.shutdown();
    await workerClosed;
    await deps?.close();
    await client?.connection.close();
    await simulator?.close();
    await deleteIndicesWithPrefix(es, prefix);
    await es.close();
  });

  const eiffelClaim = 'The Eiffel Tower is located in Paris.';

  it('retrieves evidence, returns a labelled verdict with cited passages and stores it in Elasticsearch', async () => {
    const input = buildVerifyInput(config, { claim: eiffelClaim, method: 'rag' });
    const { handle, attached } = await startVerification(client, config.temporal.taskQueue, input);
    expect(attached).toBe(false);
    const verdict = await handle.result();

    expect(VERDICT_LABELS).toContain(verdict.label);
    expect(verdict.evidence.length).toBeGreaterThan(0);
    expect(verdict.evidence[0]?.title).toMatch(/Eiffel/);
    expect(verdict.rationale.length).toBeGreaterThan(0);
    expect(verdict.usage).toMatchObject({ llmCalls: 1, toolCalls: 1 });
    expect(verdict.usage.totalTokens).toBeGreaterThan(0);
    expect(verdict.model).toBe(config.llm.models.judge);
    expect(verdict.promptVersion).toBe('rag.verdict@1');

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
    expect((await handle.result()).claim).toBe(eiffelClaim);
    expect(simulator.requests().length).toBe(callsBefore);
  });

  it('keeps the API key out of the workflow history', async () => {
    const input = buildVerifyInput(config, { claim: eiffelClaim, method: 'rag' });
    const history = await client.workflow.getHandle(`verify/adhoc/${input.claimId}/rag`).fetchHistory();
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
    const cause = (error as WorkflowFailedError).cause?.cause as Error | undefined;
    expect(cause?.message).toMatch(/does not exist/);
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});
