import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fullVerdict } from '../../src/shared/verify';
import { buildVerifyInput, startVerification } from '../../src/client/start-verification';
import { hasWorkflowPollers } from '../../src/client/worker-presence';
import type { VerityConfig } from '../../src/config/config';
import { ingestCorpus } from '../../src/corpus/ingest';
import { createEsClient } from '../../src/es/client';
import { indexName } from '../../src/es/indices';
import { projectRoot } from '../../src/project-root';
import { startSimulator, type RunningSimulator } from '../../src/simulator/server';
import { DEMO_CORPUS, deleteIndicesWithPrefix, testConfig, uniqueName } from '../support/test-env';
import { waitFor } from '../support/wait-for';

const CHAT_PATH = '/v1/chat/completions';


describe('a worker killed in the middle of a claim', () => {
  const prefix = uniqueName('kill');
  const es = createEsClient({ url: process.env.ES_URL ?? 'http://127.0.0.1:9200' });
  const workers: ChildProcess[] = [];
  let simulator: RunningSimulator;
  let config: VerityConfig;
  let client: Client;

  function spawnWorker(): ChildProcess {
    // One process (no tsx wrapper), so that SIGKILL really kills the worker.
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(projectRoot(), 'src', 'worker', 'main.ts')], {
      env: {
        ...process.env,
        ES_INDEX_PREFIX: prefix,
        TEMPORAL_TASK_QUEUE: prefix,
        OPENAI_BASE_URL: simulator.url,
        OPENAI_API_KEY: 'sk-kill-test',
        VERITY_LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    workers.push(child);
    return child;
  }

  beforeAll(async () => {
    // Slow answers keep the LLM call in flight long enough to kill the worker during it.
    simulator = await startSimulator({ port: 0, latencyMs: 4_000 });
    // The worker's task queue derives from its configuration, so the test's configuration matches it.
    config = testConfig({ ES_INDEX_PREFIX: prefix, TEMPORAL_TASK_QUEUE: prefix, OPENAI_BASE_URL: simulator.url, OPENAI_API_KEY: 'sk-kill-test' });
    await ingestCorpus({ client: es, index: indexName(prefix, 'wiki'), file: DEMO_CORPUS });
    client = new Client({ connection: await Connection.connect({ address: config.temporal.address }) });
  });

  afterAll(async () => {
    for (const child of workers) if (child.exitCode === null) child.kill('SIGKILL');
    await client?.connection.close();
    await simulator?.close();
    await deleteIndicesWithPrefix(es, prefix);
    await es.close();
  });

  it('completes the claim exactly once on the next worker', async () => {
    const first = spawnWorker();
    await waitFor('the first worker to poll', () => hasWorkflowPollers(client, config.temporal.taskQueue));

    const input = buildVerifyInput(config, { claim: 'Marie Curie won two Nobel Prizes.', method: 'rag' });
    const { handle } = await startVerification(client, config.temporal.taskQueue, input);
    await waitFor('the LLM call to be in flight', () => simulator.arrivals().some((r) => r.path === CHAT_PATH));

    const exited = new Promise((resolve) => first.once('exit', resolve));
    first.kill('SIGKILL');
    await exited;

    spawnWorker();
    const verdict = fullVerdict(await handle.result());
    expect(verdict.claim).toBe('Marie Curie won two Nobel Prizes.');

    // One execution, completed once, with the interrupted LLM call retried on the second worker.
    const executions = [];
    for await (const execution of client.workflow.list({ query: `WorkflowId = "${handle.workflowId}"` })) executions.push(execution);
    expect(executions).toHaveLength(1);
    expect(executions[0]?.status.name).toBe('COMPLETED');

    const history = await handle.fetchHistory();
    const llmAttempts = (history.events ?? [])
      .filter((event) => event.activityTaskStartedEventAttributes)
      .map((event) => event.activityTaskStartedEventAttributes?.attempt ?? 0);
    expect(Math.max(...llmAttempts)).toBeGreaterThanOrEqual(2);

    await es.indices.refresh({ index: indexName(prefix, 'verdicts') });
    const stored = await es.count({ index: indexName(prefix, 'verdicts'), query: { term: { workflowId: handle.workflowId } } });
    expect(stored.count).toBe(1);

    // The call in flight at the kill is the only one made twice.
    expect(simulator.arrivals().filter((r) => r.path === CHAT_PATH)).toHaveLength(2);
  });
});
