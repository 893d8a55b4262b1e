import type { Client as EsClient } from '@elastic/elasticsearch';
import { WorkflowFailedError, type WorkflowHandle } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessWorker, type InProcessWorker } from '../../eval/bench/support/bench-stack';
import { startTcpProxy, type TcpProxy } from '../../eval/chaos/tcp-proxy';
import { reportRetries } from '../../src/cli/retry-progress';
import { buildVerifyInput, startVerification } from '../../src/client/start-verification';
import type { VerityConfig } from '../../src/config/config';
import { ingestCorpus } from '../../src/corpus/ingest';
import { createEsClient } from '../../src/es/client';
import { indexName } from '../../src/es/indices';
import { createLogger } from '../../src/logging/logger';
import { startSimulator, type RunningSimulator } from '../../src/simulator/server';
import { spawnCli } from '../support/cli-process';
import { DEMO_CORPUS, deleteIndicesWithPrefix, testConfig, uniqueName } from '../support/test-env';
import { waitFor } from '../support/wait-for';

const API_KEY = 'sk-outage-test-secret-4242';
const LLM_TIMEOUT_MS = 700;
/** Each CLI process bundles its workflows: seconds of CPU on a loaded machine. */
const CLI_START_MS = 120_000;

/**
 * Outages and hangs, scaled down (the default retry budget is 30 minutes for LLM calls and 15 for
 * Elasticsearch; here VERITY_RETRY_BUDGET_S-style budgets of seconds): one LLM endpoint behind a
 * proxy that can refuse connections or accept them and never answer, a real worker, Temporal and
 * Elasticsearch, and `verity verify` processes interrupted with SIGINT.
 */
describe('outages and hangs (real Temporal + Elasticsearch, an LLM endpoint behind a switchable proxy)', () => {
  const prefix = uniqueName('outage');
  let es: EsClient;
  let simulator: RunningSimulator;
  let proxy: TcpProxy;
  let config: VerityConfig;
  let worker: InProcessWorker;
  let env: Record<string, string>;

  beforeAll(async () => {
    es = createEsClient({ url: process.env.ES_URL ?? 'http://127.0.0.1:9200' });
    simulator = await startSimulator({ port: 0 });
    proxy = await startTcpProxy(0, { host: '127.0.0.1', port: simulator.port });
    env = {
      ES_INDEX_PREFIX: prefix,
      TEMPORAL_TASK_QUEUE: prefix,
      OPENAI_BASE_URL: `${proxy.url}/v1`,
      OPENAI_API_KEY: API_KEY,
      VERITY_LLM_TIMEOUT_MS: String(LLM_TIMEOUT_MS),
      // A configured window: the gateway does not ask the endpoint for it, so every connection is a chat attempt.
      VERITY_LLM_CONTEXT_TOKENS: '16384',
    };
    config = testConfig(env);
    await ingestCorpus({ client: es, index: indexName(prefix, 'wiki'), file: DEMO_CORPUS });
    worker = await startInProcessWorker(config, createLogger('warn'));
  });

  afterAll(async () => {
    await worker?.close({ ignoreWorkerFailure: true });
    await proxy?.close();
    await simulator?.close();
    await deleteIndicesWithPrefix(es, prefix);
    await es.close();
  });

  const start = (claim: string, retryBudgetMs: number) =>
    startVerification(worker.client, config.temporal.taskQueue, buildVerifyInput(config, { claim, method: 'rag' }), { retryBudgetMs });

  it('a hanging endpoint: each attempt ends after VERITY_LLM_TIMEOUT_MS, progress names the endpoint and the attempt (never the key), the budget ends it', async () => {
    await proxy.hang();
    const started = Date.now();
    const { handle } = await start('The Eiffel Tower is located in Paris (hanging endpoint).', 8_000);
    const progress: string[] = [];
    const stopReporting = reportRetries(handle, (line) => progress.push(line));
    const failure = await handle.result().then(
      () => undefined,
      (err: unknown) => err,
    );
    stopReporting();
    expect(failure).toBeInstanceOf(WorkflowFailedError);
    // Without the budget the activity would retry for 30 minutes.
    expect(Date.now() - started).toBeLessThan(60_000);

    expect(proxy.hung.length).toBeGreaterThanOrEqual(2);
    // The last attempt may still be running on the worker when the budget fails the activity.
    await waitFor('every hung attempt abandoned by the client', () => proxy.hung.every((connection) => connection.closedAt !== undefined), 5_000);
    for (const connection of proxy.hung) {
      // The proxy sees a connection after the client has started its clock: on a loaded machine its
      // event loop can be a few hundred milliseconds late, so only an attempt cut far short fails.
      expect(connection.closedAt! - connection.openedAt).toBeGreaterThanOrEqual(LLM_TIMEOUT_MS - 300);
      expect(connection.closedAt! - connection.openedAt).toBeLessThan(LLM_TIMEOUT_MS + 5_000);
    }
    const endpoint = `LLM endpoint ${proxy.url}/v1: no answer within ${LLM_TIMEOUT_MS} ms (VERITY_LLM_TIMEOUT_MS)`;
    expect(progress.length).toBeGreaterThan(0);
    expect(progress[0]).toMatch(/^retrying llmTask \(attempt (\d+)\): /);
    expect(progress[0]).toContain(endpoint);
    const [, shown, failed] = /attempt (\d+)\).*\(attempt (\d+)\)$/.exec(progress[0]!)!;
    expect(Number(failed)).toBe(Number(shown) - 1);
    expect(progress.join('\n')).not.toContain(API_KEY);
  });

  it('Ctrl-C during `verity verify` stops waiting at once and says how to cancel; a second Ctrl-C, or --cancel-on-interrupt, cancels the workflow', async () => {
    await proxy.up();
    // The endpoint answers the CLI's reachability check but never answers a completion.
    simulator.setFaults([{ kind: 'timeout', everyNth: 1 }]);
    const twice = spawnCli(['verify', 'The Statue of Liberty is in New York (interrupted twice).'], env);
    const once = spawnCli(['verify', 'The Colosseum is in Rome (cancel on interrupt).', '--cancel-on-interrupt'], env);
    try {
      const [[, twiceId], [, onceId]] = await Promise.all([
        twice.waitForStderr(/^started (verify\/\S+)$/m, CLI_START_MS),
        once.waitForStderr(/^started (verify\/\S+)$/m, CLI_START_MS),
      ]);
      // The CLI's own progress line names the endpoint and the attempt.
      await twice.waitForStderr(/retrying llmTask \(attempt \d+\): LLM endpoint http:\/\/127\.0\.0\.1:\d+\/v1: no answer within 700 ms/, 30_000);
      expect(twice.output().stderr).not.toContain(API_KEY);

      const interruptedAt = Date.now();
      twice.child.kill('SIGINT');
      await twice.waitForStderr(/interrupted: \S+ keeps running in Temporal.*press Ctrl-C again within 5 s to cancel it, or later: `temporal workflow cancel --workflow-id '[^']+'`/, 10_000);
      expect(Date.now() - interruptedAt).toBeLessThan(3_000);
      const twiceHandle = worker.client.workflow.getHandle(twiceId!);
      expect((await twiceHandle.describe()).status.name).toBe('RUNNING');
      twice.child.kill('SIGINT');
      await twice.waitForStderr(new RegExp(`cancelled ${twiceId!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`), 10_000);
      expect((await twice.exited).code).toBe(130);
      await waitForStatus(twiceHandle, 'CANCELLED');

      once.child.kill('SIGINT');
      await once.waitForStderr(/^verity: cancelled verify\//m, 10_000);
      expect((await once.exited).code).toBe(130);
      await waitForStatus(worker.client.workflow.getHandle(onceId!), 'CANCELLED');
    } finally {
      simulator.setFaults([]);
      for (const cli of [twice, once]) if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
    }
  }, 2 * CLI_START_MS);

  it('an endpoint outage: infrastructure errors are retried until it ends, within the budget', async () => {
    await proxy.down();
    const { handle } = await start('The Eiffel Tower is located in Paris (endpoint outage).', 60_000);
    // Two refused attempts at least; the outage ends while the activity waits for its next one.
    await waitFor('two refused attempts', async () => ((await handle.describe()).raw.pendingActivities?.[0]?.attempt ?? 0) >= 3, 30_000);
    const pending = (await handle.describe()).raw.pendingActivities![0]!;
    expect(pending.lastFailure?.message).toMatch(new RegExp(`LLM endpoint ${proxy.url}/v1: .*\\(attempt \\d+\\)`));
    await proxy.up();
    const verdict = await handle.result();
    expect(verdict.label).toBe('SUPPORTED');
    expect(verdict.usage.llmCalls).toBe(1);
  });
});

async function waitForStatus(handle: WorkflowHandle, status: string): Promise<void> {
  await waitFor(`workflow ${handle.workflowId} ${status}`, async () => (await handle.describe()).status.name === status, 60_000);
}
